import { outcomeChanges, outcomeTargetReference } from './outcome-changes';
import { APPROVED_AT, amountOf, approvalOf, approvedRecordOf, recordOf } from './testing/transaction-records';
import type { EventOutcome } from './transaction-record';

const DECLINED: EventOutcome = {
  kind: 'acquirer',
  response: {
    approved: false,
    timestamp: APPROVED_AT,
    rawResponse: { transaction_reference: 'ref-d', card_type: 'CREDIT' },
  },
};

describe('outcomeChanges: what storing an outcome changes', () => {
  it('an approved charge takes its reference and a settled record of its own amount', () => {
    const charge = recordOf({ status: 'APPROVAL_REQUESTED', amount: amountOf(12_000) });
    const outcome = approvalOf('ref-c', 'DEBIT');
    expect(outcomeChanges(charge, outcome, null)).toEqual({
      own: {
        outcome,
        transactionReference: 'ref-c',
        businessState: 'SETTLED',
        businessAmount: amountOf(12_000),
        cardType: 'DEBIT',
        approvedAtMs: APPROVED_AT,
        validFromMs: APPROVED_AT,
      },
      target: null,
    });
  });

  it('a decline, or the terminal’s refusal, stores the outcome only', () => {
    const charge = recordOf({ status: 'APPROVAL_REQUESTED' });
    expect(outcomeChanges(charge, DECLINED, null)).toEqual({ own: { outcome: DECLINED }, target: null });
    const refusal: EventOutcome = { kind: 'terminal' };
    expect(outcomeChanges(charge, refusal, null)).toEqual({ own: { outcome: refusal }, target: null });
  });

  it('an outcome is stored once: a second one changes nothing', () => {
    const approved = approvedRecordOf({ transactionReference: 'ref-c' });
    expect(outcomeChanges(approved, approvalOf('ref-other'), null)).toEqual({ own: {}, target: null });
    expect(outcomeChanges(approved, undefined, null)).toEqual({ own: {}, target: null });
  });

  it('a capture settles on its own and marks the authorization CAPTURED; a void only marks it VOIDED', () => {
    const authorization = approvedRecordOf({ operationType: 'authorization', transactionReference: 'ref-a' });
    const capture = recordOf({ operationType: 'capture', targetReference: 'ref-a', amount: amountOf(8000) });
    const captured = outcomeChanges(capture, approvalOf('ref-cap'), authorization);
    expect(captured.own).toMatchObject({ businessState: 'SETTLED', businessAmount: amountOf(8000) });
    expect(captured.target).toEqual({ businessState: 'CAPTURED' });
    const voided = recordOf({ operationType: 'void', targetReference: 'ref-a' });
    const changes = outcomeChanges(voided, approvalOf('ref-v'), authorization);
    expect(changes.own).toEqual({ outcome: approvalOf('ref-v'), transactionReference: 'ref-v' });
    expect(changes.target).toEqual({ businessState: 'VOIDED' });
  });

  it('a re-authorization sets its own amount as the authorized one and restarts the validity', () => {
    const authorization = approvedRecordOf({ operationType: 'authorization', transactionReference: 'ref-a' });
    const reauthorization = recordOf({
      operationType: 're_authorization',
      targetReference: 'ref-a',
      amount: amountOf(15_000),
    });
    expect(outcomeChanges(reauthorization, approvalOf('ref-r'), authorization).target).toEqual({
      businessAmount: amountOf(15_000),
      validFromMs: APPROVED_AT,
    });
  });

  it('refunds add up on the charge; the one that reaches amount plus tip makes it REFUNDED', () => {
    const charge = approvedRecordOf({ transactionReference: 'ref-c', businessTip: 500 });
    const refund = recordOf({ operationType: 'refund', targetReference: 'ref-c', amount: amountOf(4000) });
    expect(outcomeChanges(refund, approvalOf('ref-f1'), charge).target).toEqual({
      refundedTotal: 4000,
      businessState: 'PARTIALLY_REFUNDED',
    });
    const partly = { ...charge, refundedTotal: 4000, businessState: 'PARTIALLY_REFUNDED' as const };
    const rest = recordOf({ operationType: 'refund', targetReference: 'ref-c', amount: amountOf(6500) });
    expect(outcomeChanges(rest, approvalOf('ref-f2'), partly).target).toEqual({
      refundedTotal: 10_500,
      businessState: 'REFUNDED',
    });
  });

  it('a follow-up whose target has no business record changes nothing on it', () => {
    const voided = recordOf({ operationType: 'void', targetReference: 'ref-x' });
    expect(
      outcomeChanges(voided, approvalOf('ref-v'), recordOf({ transactionReference: 'ref-x' })).target,
    ).toBeNull();
  });
});

describe('outcomeTargetReference: which transaction an outcome changes too', () => {
  it('an approved follow-up’s target only', () => {
    const refund = recordOf({ operationType: 'refund', targetReference: 'ref-c' });
    expect(outcomeTargetReference(refund, approvalOf('ref-f'))).toBe('ref-c');
    expect(outcomeTargetReference(refund, DECLINED)).toBeNull();
    expect(outcomeTargetReference(refund, undefined)).toBeNull();
    expect(
      outcomeTargetReference({ ...refund, outcome: approvalOf('ref-f') }, approvalOf('ref-f')),
    ).toBeNull();
    expect(outcomeTargetReference(recordOf({ operationType: 'charge' }), approvalOf('ref-c'))).toBeNull();
  });
});
