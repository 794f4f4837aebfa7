import { followUpTargetReference, mayAdopt, namedReferenceOf, type AdoptableOrder } from './adoption';
import { MERCHANT, eventOf, recordOf } from './testing/transaction-records';

const NAME = { merchantId: MERCHANT, clientTransactionId: 'lost-1' };
const ORDER: AdoptableOrder = { type: 'charge', ...NAME };

describe('mayAdopt: recording a transaction from the order its terminal took', () => {
  it('takes the acknowledgement of the terminal merchant’s transaction, under its own name', () => {
    expect(mayAdopt(MERCHANT, eventOf(NAME, '', 'TERMINAL_ACKNOWLEDGED'), ORDER)).toBe(true);
  });

  it('refuses any other event, a missing order, another merchant, or another name', () => {
    const acknowledgement = eventOf(NAME, '', 'TERMINAL_ACKNOWLEDGED');
    expect(mayAdopt(MERCHANT, eventOf(NAME, 'TERMINAL_ACKNOWLEDGED', 'CARD_PRESENTED'), ORDER)).toBe(false);
    expect(mayAdopt(MERCHANT, acknowledgement, undefined)).toBe(false);
    expect(mayAdopt('merchant-2', acknowledgement, ORDER)).toBe(false);
    expect(mayAdopt(MERCHANT, acknowledgement, { ...ORDER, merchantId: 'merchant-2' })).toBe(false);
    expect(mayAdopt(MERCHANT, acknowledgement, { ...ORDER, clientTransactionId: 'lost-2' })).toBe(false);
    const otherMerchants = eventOf({ ...NAME, merchantId: 'merchant-2' }, '', 'TERMINAL_ACKNOWLEDGED');
    expect(mayAdopt(MERCHANT, otherMerchants, ORDER)).toBe(false);
  });
});

describe('followUpTargetReference: the transaction a follow-up acts on', () => {
  it('is the one it names, or the one a re-authorization or a tip it names acted on (contract §2)', () => {
    const charge = recordOf({ operationType: 'charge', transactionReference: 'ref-c' });
    expect(followUpTargetReference(charge, 'ref-c')).toBe('ref-c');
    expect(followUpTargetReference(null, 'ref-x')).toBe('ref-x');
    const tip = recordOf({
      operationType: 'pos_tip',
      transactionReference: 'ref-t',
      targetReference: 'ref-c',
    });
    expect(followUpTargetReference(tip, 'ref-t')).toBe('ref-c');
    const reauthorization = recordOf({
      operationType: 're_authorization',
      transactionReference: 'ref-r',
      targetReference: 'ref-a',
    });
    expect(followUpTargetReference(reauthorization, 'ref-r')).toBe('ref-a');
    const refund = recordOf({
      operationType: 'refund',
      transactionReference: 'ref-f',
      targetReference: 'ref-c',
    });
    expect(followUpTargetReference(refund, 'ref-f')).toBe('ref-f');
  });

  it('is asked only of an order that acts on an earlier transaction', () => {
    expect(namedReferenceOf({ ...ORDER, type: 'void', transactionReference: 'ref-c' })).toBe('ref-c');
    expect(namedReferenceOf({ ...ORDER, type: 'void' })).toBeNull();
    expect(namedReferenceOf({ ...ORDER, type: 'charge', transactionReference: 'ref-c' })).toBeNull();
  });
});
