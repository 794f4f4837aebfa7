import type { TransactionEvent } from '@tps/contracts';
import { isFinalStatus } from '@tps/domain';
import type { LinkEvent } from './messages';
import type { TransactionOutcome } from './transaction-outcome';

/** The first event of a transaction's run: its TERMINAL_ACKNOWLEDGED. */
export function acknowledgementOf(events: LinkEvent[]): TransactionEvent | undefined {
  const first = events[0]?.event;
  return first?.status === 'TERMINAL_ACKNOWLEDGED' ? first : undefined;
}

/** How the transaction ended, when the run reaches its final event. */
export function outcomeOf(events: LinkEvent[]): TransactionOutcome | undefined {
  const last = events.at(-1);
  return last !== undefined && isFinalStatus(last.event.status) ? last.outcome : undefined;
}
