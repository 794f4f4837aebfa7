import { approvalEffects } from './approval-effects';
import type { BusinessRecord } from './business-state';

const AT = Date.UTC(2026, 10, 23, 15, 0, 0);
const settled: BusinessRecord = {
  state: 'SETTLED',
  total: 10_000,
  tip: 500,
  refunded: 0,
  cardType: 'CREDIT',
  approvedAt: AT - 1000,
  validFrom: AT - 1000,
};

describe('approvalEffects: what an approval does to money', () => {
  it('a charge starts a settled record of its own and touches nothing else', () => {
    expect(
      approvalEffects({ type: 'charge', total: 10_000, tip: 0 }, { cardType: 'DEBIT', at: AT }, null),
    ).toEqual({
      own: {
        state: 'SETTLED',
        total: 10_000,
        tip: 0,
        refunded: 0,
        cardType: 'DEBIT',
        approvedAt: AT,
        validFrom: AT,
      },
      target: null,
    });
  });

  it('an authorization starts an authorized record; its validity counts from the approval', () => {
    const { own } = approvalEffects(
      { type: 'authorization', total: 5000, tip: 0 },
      { cardType: 'CREDIT', at: AT },
      null,
    );
    expect(own).toMatchObject({ state: 'AUTHORIZED', total: 5000, validFrom: AT });
  });

  it('refunds add up, and the last one that reaches amount plus tip makes it REFUNDED', () => {
    const partial = approvalEffects(
      { type: 'refund', total: 4000, tip: 0 },
      { cardType: 'CREDIT', at: AT },
      settled,
    );
    expect(partial).toEqual({ own: null, target: { refunded: 4000, state: 'PARTIALLY_REFUNDED' } });
    const rest = approvalEffects(
      { type: 'refund', total: 6500, tip: 0 },
      { cardType: 'CREDIT', at: AT },
      { ...settled, refunded: 4000, state: 'PARTIALLY_REFUNDED' },
    );
    expect(rest.target).toEqual({ refunded: 10_500, state: 'REFUNDED' });
  });

  it('a tip moves its tip, a re-authorization its total and validity, a capture starts its own record', () => {
    expect(
      approvalEffects({ type: 'pos_tip', total: 10_000, tip: 700 }, { cardType: 'CREDIT', at: AT }, settled)
        .target,
    ).toEqual({
      tip: 1200,
    });
    const authorized = { ...settled, state: 'AUTHORIZED' as const, tip: 0 };
    expect(
      approvalEffects(
        { type: 're_authorization', total: 15_000, tip: 0 },
        { cardType: 'CREDIT', at: AT },
        authorized,
      ).target,
    ).toEqual({ total: 15_000, validFrom: AT });
    const capture = approvalEffects(
      { type: 'capture', total: 8000, tip: 0 },
      { cardType: 'CREDIT', at: AT },
      authorized,
    );
    expect(capture.own).toMatchObject({ state: 'SETTLED', total: 8000 });
    expect(capture.target).toEqual({ state: 'CAPTURED' });
  });

  it('a follow-up whose target has no business record changes nothing but itself', () => {
    expect(
      approvalEffects({ type: 'void', total: 10_000, tip: 0 }, { cardType: 'CREDIT', at: AT }, null),
    ).toEqual({
      own: null,
      target: null,
    });
  });
});
