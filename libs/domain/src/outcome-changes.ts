import { approvalEffects } from './approval-effects';
import { totalCentavos } from './amounts';
import { isFollowUp } from './business-state';
import {
  businessRecordOf,
  ownBusinessChanges,
  targetChanges,
  type EventOutcome,
  type TransactionRecord,
} from './transaction-record';

/** What storing an outcome changes: on its own transaction, and on the one a follow-up acted on. */
export interface OutcomeChanges {
  own: Partial<TransactionRecord>;
  /** Null when nothing changes on another transaction. */
  target: Partial<TransactionRecord> | null;
}

function isApproval(outcome: EventOutcome): outcome is Extract<EventOutcome, { kind: 'acquirer' }> {
  return outcome.kind === 'acquirer' && outcome.response.approved;
}

/**
 * The reference of the transaction whose record this outcome changes too: an approved
 * follow-up's target, read before `outcomeChanges`. Null when it changes no other.
 */
export function outcomeTargetReference(
  record: TransactionRecord,
  outcome: EventOutcome | undefined,
): string | null {
  if (outcome === undefined || record.outcome !== null || !isApproval(outcome)) return null;
  return isFollowUp(record.operationType) ? record.targetReference : null;
}

/**
 * The changes that store an outcome, once: the outcome itself, and an approval's business effects
 * (contract §9) on the transaction and on the `target` a follow-up acted on (as stored, or null).
 */
export function outcomeChanges(
  record: TransactionRecord,
  outcome: EventOutcome | undefined,
  target: TransactionRecord | null,
): OutcomeChanges {
  if (outcome === undefined || record.outcome !== null) return { own: {}, target: null };
  const own: Partial<TransactionRecord> = { outcome };
  if (!isApproval(outcome)) return { own, target: null };
  const { rawResponse, timestamp } = outcome.response;
  own.transactionReference = rawResponse.transaction_reference;
  const effects = approvalEffects(
    { type: record.operationType, total: totalCentavos(record.amount), tip: record.tip },
    { cardType: rawResponse.card_type, at: timestamp },
    target === null ? null : businessRecordOf(target),
  );
  if (effects.own !== null) Object.assign(own, ownBusinessChanges(effects.own, record));
  return {
    own,
    target: target !== null && effects.target !== null ? targetChanges(effects.target, record) : null,
  };
}
