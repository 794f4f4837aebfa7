import {
  afterFollowUp,
  allowFollowUp,
  currentState,
  stateOnApproval,
  type BusinessRecord,
  type FollowUp,
} from './business-state';
import { ContractError } from './error-codes';
import { DAY_MS } from './mexico-city-time';

const approvedAt = Date.parse('2026-11-22T16:00:00.000Z'); // 10:00 in Mexico City
const sameDay = approvedAt + 60_000;
const afterCutoff = Date.parse('2026-11-23T04:00:00.000Z'); // 22:00 local

function record(changes: Partial<BusinessRecord> = {}): BusinessRecord {
  return {
    state: 'SETTLED',
    total: 10000,
    tip: 0,
    refunded: 0,
    cardType: 'CREDIT',
    approvedAt,
    validFrom: approvedAt,
    ...changes,
  };
}

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof ContractError) return error.code;
    throw error;
  }
  return 'allowed';
}

describe('business state', () => {
  it('gives charges and captures SETTLED, authorizations AUTHORIZED, other operations none', () => {
    expect(stateOnApproval('charge')).toBe('SETTLED');
    expect(stateOnApproval('capture')).toBe('SETTLED');
    expect(stateOnApproval('authorization')).toBe('AUTHORIZED');
    for (const type of ['re_authorization', 'pos_tip', 'void', 'refund', 'abort'] as const) {
      expect(stateOnApproval(type)).toBeNull();
    }
  });

  it('reads an authorization past its validity as EXPIRED', () => {
    const credit = record({ state: 'AUTHORIZED' });
    expect(currentState(credit, approvedAt + 27 * DAY_MS)).toBe('AUTHORIZED');
    expect(currentState(credit, approvedAt + 29 * DAY_MS)).toBe('EXPIRED');
    expect(currentState(record({ state: 'AUTHORIZED', cardType: 'DEBIT' }), approvedAt + 8 * DAY_MS)).toBe(
      'EXPIRED',
    );
    expect(currentState(record(), approvedAt + 400 * DAY_MS)).toBe('SETTLED');
  });

  const authorized = record({ state: 'AUTHORIZED' });
  const cases: Array<[string, BusinessRecord, FollowUp, number, string | number]> = [
    ['capture of the whole authorization', authorized, { type: 'capture' }, sameDay, 10000],
    ['a smaller capture', authorized, { type: 'capture', amount: 4000 }, sameDay, 4000],
    ['an over-capture', authorized, { type: 'capture', amount: 10001 }, sameDay, 'TRX-005'],
    ['a second capture', record({ state: 'CAPTURED' }), { type: 'capture' }, sameDay, 'TRX-006'],
    [
      'capture of a voided authorization',
      record({ state: 'VOIDED' }),
      { type: 'capture' },
      sameDay,
      'TRX-006',
    ],
    [
      'capture of an expired credit one',
      authorized,
      { type: 'capture' },
      approvedAt + 29 * DAY_MS,
      'TRX-004',
    ],
    ['capture of a charge', record(), { type: 'capture' }, sameDay, 'TRX-006'],
    ['re-authorization', authorized, { type: 're_authorization', amount: 15000 }, sameDay, 15000],
    [
      're-authorization when expired',
      authorized,
      { type: 're_authorization', amount: 1 },
      afterCutoff + 40 * DAY_MS,
      'TRX-004',
    ],
    ['a tip', record(), { type: 'pos_tip', tip: 500 }, sameDay, 500],
    ['a second tip', record({ tip: 500 }), { type: 'pos_tip', tip: 500 }, sameDay, 'TRX-006'],
    ['a tip on an authorization', authorized, { type: 'pos_tip', tip: 500 }, sameDay, 'TRX-006'],
    ['void the same day', record({ tip: 500 }), { type: 'void' }, sameDay, 10500],
    ['void of an authorization the same day', authorized, { type: 'void' }, sameDay, 10000],
    ['void at 22:00', record(), { type: 'void' }, afterCutoff, 'TRX-003'],
    ['void of an authorization at 22:00', authorized, { type: 'void' }, afterCutoff, 'TRX-003'],
    ['a second void', record({ state: 'VOIDED' }), { type: 'void' }, sameDay, 'TRX-006'],
    ['void after a refund', record({ state: 'PARTIALLY_REFUNDED' }), { type: 'void' }, sameDay, 'TRX-006'],
    ['refund of everything by default', record({ tip: 500 }), { type: 'refund' }, afterCutoff, 10500],
    [
      'refund of what is left',
      record({ tip: 500, refunded: 10000, state: 'PARTIALLY_REFUNDED' }),
      { type: 'refund', amount: 500 },
      afterCutoff,
      500,
    ],
    [
      'an over-refund',
      record({ refunded: 9000, state: 'PARTIALLY_REFUNDED' }),
      { type: 'refund', amount: 1001 },
      afterCutoff,
      'TRX-005',
    ],
    [
      'refund of a refunded charge',
      record({ refunded: 10000, state: 'REFUNDED' }),
      { type: 'refund', amount: 1 },
      afterCutoff,
      'TRX-006',
    ],
    ['refund of a voided charge', record({ state: 'VOIDED' }), { type: 'refund' }, afterCutoff, 'TRX-006'],
    ['refund of an authorization', authorized, { type: 'refund' }, sameDay, 'TRX-006'],
  ];

  it.each(cases)('%s', (_name, target, followUp, now, expected) => {
    expect(refusal(() => allowFollowUp(target, followUp, now))).toBe(
      typeof expected === 'number' ? 'allowed' : expected,
    );
    if (typeof expected === 'number') expect(allowFollowUp(target, followUp, now)).toBe(expected);
  });

  it('applies each approved follow-up to the transaction it acted on', () => {
    expect(afterFollowUp(authorized, 'capture', 4000, sameDay)).toEqual({ state: 'CAPTURED' });
    expect(afterFollowUp(authorized, 're_authorization', 15000, sameDay)).toEqual({
      total: 15000,
      validFrom: sameDay,
    });
    expect(afterFollowUp(record(), 'pos_tip', 500, sameDay)).toEqual({ tip: 500 });
    expect(afterFollowUp(record(), 'void', 10000, sameDay)).toEqual({ state: 'VOIDED' });
    expect(afterFollowUp(record({ tip: 500 }), 'refund', 10000, sameDay)).toEqual({
      refunded: 10000,
      state: 'PARTIALLY_REFUNDED',
    });
    expect(afterFollowUp(record({ tip: 500, refunded: 10000 }), 'refund', 500, sameDay)).toEqual({
      refunded: 10500,
      state: 'REFUNDED',
    });
  });
});
