import { ContractError } from './error-codes';
import type { OperationType } from './operation-types';
import { isPreauthExpired } from './preauth-validity';
import { isVoidAllowed } from './void-cutoff';

/**
 * The business state of an approved transaction (contract §9), beside its seven-state lifecycle:
 * an authorization is AUTHORIZED → CAPTURED · VOIDED · EXPIRED; a charge or a capture is
 * SETTLED → VOIDED · PARTIALLY_REFUNDED → REFUNDED.
 */
export const BUSINESS_STATES = [
  'AUTHORIZED',
  'CAPTURED',
  'VOIDED',
  'EXPIRED',
  'SETTLED',
  'PARTIALLY_REFUNDED',
  'REFUNDED',
] as const;
export type BusinessState = (typeof BUSINESS_STATES)[number];

/** The operations that act on an earlier transaction, named by its transaction_reference. */
export const FOLLOW_UP_TYPES = ['capture', 're_authorization', 'pos_tip', 'void', 'refund'] as const;
export type FollowUpType = (typeof FOLLOW_UP_TYPES)[number];

export function isFollowUp(type: OperationType): type is FollowUpType {
  return (FOLLOW_UP_TYPES as readonly string[]).includes(type);
}

/** What an approved charge, authorization or capture holds; amounts in centavos, times in ms. */
export interface BusinessRecord {
  state: BusinessState;
  /** Authorized total (authorization) or settled total without tip (charge, capture). */
  total: number;
  tip: number;
  refunded: number;
  cardType: string;
  /** The approval, on the merchant's clock: the void cut-off counts from here. */
  approvedAt: number;
  /** Start of a pre-authorization's validity: the approval or the last re-authorization. */
  validFrom: number;
}

export interface FollowUp {
  type: FollowUpType;
  /** The requested total in centavos; absent where the request may leave it out. */
  amount?: number;
  tip?: number;
}

/** The state an operation's own approval gives it; follow-ups other than capture have none. */
export function stateOnApproval(type: OperationType): BusinessState | null {
  switch (type) {
    case 'authorization':
      return 'AUTHORIZED';
    case 'charge':
    case 'capture':
      return 'SETTLED';
    case 're_authorization':
    case 'pos_tip':
    case 'void':
    case 'refund':
    case 'abort':
      return null;
    default: {
      const unknownType: never = type;
      throw new Error(`unknown operation type ${String(unknownType)}`);
    }
  }
}

/** The stored state, with an authorization whose validity has passed read as EXPIRED. */
export function currentState(record: BusinessRecord, now: number): BusinessState {
  if (record.state === 'AUTHORIZED' && isPreauthExpired(record.validFrom, record.cardType, now)) {
    return 'EXPIRED';
  }
  return record.state;
}

/** The states from which each follow-up may start (the transition table's left column). */
export const FOLLOW_UP_FROM: Record<FollowUpType, readonly BusinessState[]> = {
  capture: ['AUTHORIZED'],
  re_authorization: ['AUTHORIZED'],
  pos_tip: ['SETTLED'],
  void: ['AUTHORIZED', 'SETTLED'],
  refund: ['SETTLED', 'PARTIALLY_REFUNDED'],
};

function refused(followUp: FollowUpType, state: BusinessState): ContractError {
  if (state === 'EXPIRED' && followUp !== 'refund' && followUp !== 'pos_tip') {
    return new ContractError('TRX-004', 'the pre-authorization has expired', 'transaction_reference');
  }
  return new ContractError(
    'TRX-006',
    `${followUp} is not allowed on a transaction in state ${state}`,
    'transaction_reference',
  );
}

/**
 * Checks a follow-up against the transaction it names and answers the total, in centavos, that
 * it moves: the captured, re-authorized, tipped, voided or refunded amount. Throws the refusal
 * of contract §9 otherwise.
 */
export function allowFollowUp(record: BusinessRecord, followUp: FollowUp, now: number): number {
  const state = currentState(record, now);
  if (!FOLLOW_UP_FROM[followUp.type].includes(state)) throw refused(followUp.type, state);
  switch (followUp.type) {
    case 'capture': {
      const amount = followUp.amount ?? record.total;
      if (amount > record.total) {
        throw new ContractError(
          'TRX-005',
          `capture of ${amount} exceeds the authorized ${record.total}`,
          'amount',
        );
      }
      return amount;
    }
    case 're_authorization':
      return followUp.amount ?? record.total;
    case 'pos_tip':
      if (record.tip > 0)
        throw new ContractError('TRX-006', 'a tip was already added to this transaction', 'tip');
      return followUp.tip ?? 0;
    case 'void':
      if (!isVoidAllowed(record.approvedAt, now)) {
        throw new ContractError(
          'TRX-003',
          'a void is possible only on the day of the approval, before 22:00 Mexico City time; use a refund',
          'transaction_reference',
        );
      }
      return record.total + record.tip;
    case 'refund': {
      const left = record.total + record.tip - record.refunded;
      const amount = followUp.amount ?? left;
      if (amount > left) {
        throw new ContractError(
          'TRX-005',
          `refund of ${amount} exceeds the ${left} left to refund`,
          'amount',
        );
      }
      return amount;
    }
    default: {
      const unknownType: never = followUp.type;
      throw new Error(`unknown follow-up ${String(unknownType)}`);
    }
  }
}

/** How an approved follow-up changes the transaction it acted on. */
export function afterFollowUp(
  record: BusinessRecord,
  type: FollowUpType,
  moved: number,
  at: number,
): Partial<BusinessRecord> {
  switch (type) {
    case 'capture':
      return { state: 'CAPTURED' };
    case 're_authorization':
      return { total: moved, validFrom: at };
    case 'pos_tip':
      return { tip: record.tip + moved };
    case 'void':
      return { state: 'VOIDED' };
    case 'refund': {
      const refunded = record.refunded + moved;
      return { refunded, state: refunded >= record.total + record.tip ? 'REFUNDED' : 'PARTIALLY_REFUNDED' };
    }
    default: {
      const unknownType: never = type;
      throw new Error(`unknown follow-up ${String(unknownType)}`);
    }
  }
}
