import type { OriginalCard, TransactionOutcome } from '@tps/link';
import { readingTypeOfEntryMode } from '@tps/contracts';

/** The card a follow-up acts on, as its terminal is told (contract §9: same reading type). */
export function originalCardOf(transaction: {
  outcome: TransactionOutcome | null;
}): OriginalCard | undefined {
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
