import type { TerminalPurge } from '../ports/terminal-purge';
import type { SerialWriter } from '../serial-writer';
import { sqlOf } from '../sql';

/**
 * A batch is one statement: each part a data-modifying WITH, all reading the rows as they were
 * before it (no foreign keys: the parts may go in any order). The oldest transactions first, by
 * the (serial, date) index; print jobs the printer is done with and whose last change was reported.
 */
const PURGE_BATCH = `WITH doomed AS (
    SELECT t.key FROM terminal_transactions t WHERE t.serial_number = ? AND t.created_at < ?
      AND NOT EXISTS (SELECT 1 FROM terminal_events e WHERE e.transaction_key = t.key AND NOT e.acked)
    ORDER BY t.created_at LIMIT ?),
  events AS (DELETE FROM terminal_events WHERE transaction_key IN (SELECT key FROM doomed)),
  transactions_gone AS (DELETE FROM terminal_transactions WHERE key IN (SELECT key FROM doomed) RETURNING 1),
  jobs_gone AS (DELETE FROM terminal_print_jobs WHERE seq IN (
    SELECT seq FROM terminal_print_jobs WHERE serial_number = ? AND status IN ('COMPLETED', 'FAILED')
      AND reported_version = version AND updated_at < ? LIMIT ?) RETURNING 1)
  SELECT (SELECT count(*) FROM transactions_gone) AS transactions, (SELECT count(*) FROM jobs_gone) AS jobs`;

export class PostgresTerminalPurge implements TerminalPurge {
  constructor(private readonly writer: SerialWriter) {}

  purgeBatch(serial: string, before: string, batch: number): Promise<number> {
    return this.writer.writeOne(async (manager) => {
      // count(*) is a bigint, which node-postgres reads as a string.
      const [purged] = await sqlOf(manager).all<{ transactions: string; jobs: string }>(PURGE_BATCH, [
        serial,
        before,
        batch,
        serial,
        before,
        batch,
      ]);
      return Math.max(Number(purged.transactions), Number(purged.jobs));
    });
  }
}
