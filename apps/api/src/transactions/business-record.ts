import { totalCentavos, type BusinessRecord } from '@tps/domain';
import type { OriginalCard } from '@tps/link';
import { readingTypeOfEntryMode } from '@tps/contracts';
import type { TransactionEntity } from './transaction.entity';

/** The business side of a stored transaction, for the domain's rules; null where it has none. */
export function businessRecordOf(transaction: TransactionEntity): BusinessRecord | null {
  const { businessState, businessAmount, approvedAtMs, validFromMs } = transaction;
  if (businessState === null || businessAmount === null || approvedAtMs === null || validFromMs === null) {
    return null;
  }
  return {
    state: businessState,
    total: totalCentavos(businessAmount),
    tip: transaction.businessTip,
    refunded: transaction.refundedTotal,
    cardType: transaction.cardType ?? 'CREDIT',
    approvedAt: approvedAtMs,
    validFrom: validFromMs,
  };
}

/** The card a follow-up acts on, as its terminal is told (contract §9: same reading type). */
export function originalCardOf(transaction: TransactionEntity): OriginalCard | undefined {
  const outcome = transaction.outcome;
  if (outcome?.kind !== 'acquirer') return undefined;
  const { cardData, rawResponse } = outcome.response;
  return {
    readingType: readingTypeOfEntryMode(cardData.entryMode) ?? 'CHIP',
    cardType: rawResponse.card_type,
    franchise: rawResponse.franchise,
    pan: cardData.pan,
    bin: cardData.bin,
  };
}
