import { isFinalStatus } from '@tps/domain';
import type { TransactionEntity } from './transaction.entity';

/**
 * How long a row this process wrote stands in for a read of it: a terminal at pace instant
 * answers within a few ms, and holds an operation's events off its uplink for 300 ms.
 */
export const RECENT_ROW_MS = 250;
/** A bound, so that rows no run ever comes back for cost nothing lasting. */
const MAX_ROWS = 10_000;

const keyOf = (merchantId: string, clientTransactionId: string): string =>
  `${merchantId}:${clientTransactionId}`;

/**
 * The rows of unfinished transactions as this process has just inserted them or written them
 * with a run of events. The next run of the same transaction (the terminal's reply, or an async
 * operation's events up the uplink a few milliseconds after its acknowledgement) takes its row
 * from here instead of reading it. A row
 * taken is only a hint: the run's UPDATE requires the stored row to hold the same event and
 * delivery counts, and the run is written again from the store if it does not (RecordMovedOnError).
 * Final rows are not kept: a follow-up (a void, a capture) changes them without an event.
 */
export class RecentTransactions {
  private readonly rows = new Map<string, { row: TransactionEntity; at: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  remember(rows: TransactionEntity[]): void {
    const at = this.now();
    this.prune(at);
    for (const row of rows) {
      const key = keyOf(row.merchantId, row.clientTransactionId);
      // Deleted first, so that the map's order stays the order of the writes.
      this.rows.delete(key);
      if (isFinalStatus(row.status)) continue;
      if (this.rows.size >= MAX_ROWS) this.rows.delete(this.rows.keys().next().value as string);
      this.rows.set(key, { row: { ...row }, at });
    }
  }

  /** The row as the last run wrote it, if that was recent; once (a run that takes it writes it again). */
  take(merchantId: string, clientTransactionId: string): TransactionEntity | undefined {
    const key = keyOf(merchantId, clientTransactionId);
    const recent = this.rows.get(key);
    if (recent === undefined) return undefined;
    this.rows.delete(key);
    return this.now() - recent.at < RECENT_ROW_MS ? { ...recent.row } : undefined;
  }

  private prune(now: number): void {
    for (const [key, { at }] of this.rows) {
      if (now - at < RECENT_ROW_MS) return;
      this.rows.delete(key);
    }
  }
}
