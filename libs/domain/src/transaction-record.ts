import { totalCentavos, type AmountCentavos } from './amounts';
import type { BusinessRecord, BusinessState } from './business-state';
import type { LifecycleStatus } from './lifecycle';
import type { OperationType } from './operation-types';

/** A terminal's event, by the fields of its envelope that the money rules read. */
export interface EventEnvelope {
  event_id: string;
  previous_status: LifecycleStatus | '';
  status: LifecycleStatus;
  merchant_id: string;
  client_transaction_id: string;
  occurred_at: string;
}

/** How a transaction ended, by the fields the money rules read (the acquirer's, or the terminal's refusal). */
export type EventOutcome =
  | {
      kind: 'acquirer';
      response: {
        approved: boolean;
        /** The approval, on the merchant's clock (ms). */
        timestamp: number;
        rawResponse: { transaction_reference: string; card_type: string };
      };
    }
  | { kind: 'terminal' };

/**
 * A stored transaction, by the columns the money rules read and change. `O` and `E` are the
 * outcome and the acknowledgement as the caller stores them: the rules pass them through.
 */
export interface TransactionRecord<
  O extends EventOutcome = EventOutcome,
  E extends EventEnvelope = EventEnvelope,
> {
  id: string;
  merchantId: string;
  clientTransactionId: string;
  operationType: OperationType;
  terminalSerial: string;
  status: LifecycleStatus | null;
  amount: AmountCentavos;
  tip: number;
  /** This transaction's own reference, once approved. */
  transactionReference: string | null;
  /** The reference of the transaction this operation acts on (capture, void, …). */
  targetReference: string | null;
  acknowledgement: E | null;
  outcome: O | null;
  businessState: BusinessState | null;
  /** The authorized amount (a re-authorization replaces it) or the settled one. */
  businessAmount: AmountCentavos | null;
  businessTip: number;
  refundedTotal: number;
  cardType: string | null;
  approvedAtMs: number | null;
  validFromMs: number | null;
  /** How many events are stored: the next one's sequence follows it. */
  eventCount: number;
}

/** The business side of a stored transaction, for the rules of contract §9; null where it has none. */
export function businessRecordOf(record: TransactionRecord): BusinessRecord | null {
  const { businessState, businessAmount, approvedAtMs, validFromMs } = record;
  if (businessState === null || businessAmount === null || approvedAtMs === null || validFromMs === null) {
    return null;
  }
  return {
    state: businessState,
    total: totalCentavos(businessAmount),
    tip: record.businessTip,
    refunded: record.refundedTotal,
    cardType: record.cardType ?? 'CREDIT',
    approvedAt: approvedAtMs,
    validFrom: validFromMs,
  };
}

/** The columns that hold the record an approved charge, authorization or capture starts. */
export function ownBusinessChanges(
  own: BusinessRecord,
  approved: TransactionRecord,
): Partial<TransactionRecord> {
  return {
    businessState: own.state,
    businessAmount: approved.amount,
    cardType: own.cardType,
    approvedAtMs: own.approvedAt,
    validFromMs: own.validFrom,
  };
}

/** The columns a follow-up's effects change on the transaction it acted on. */
export function targetChanges(
  after: Partial<BusinessRecord>,
  followUp: TransactionRecord,
): Partial<TransactionRecord> {
  const changes: Partial<TransactionRecord> = {};
  if (after.state !== undefined) changes.businessState = after.state;
  if (after.tip !== undefined) changes.businessTip = after.tip;
  if (after.refunded !== undefined) changes.refundedTotal = after.refunded;
  if (after.validFrom !== undefined) changes.validFromMs = after.validFrom;
  // A re-authorization sets a new authorized amount: its own.
  if (after.total !== undefined) changes.businessAmount = followUp.amount;
  return changes;
}
