import { SerialWriter, sqlOf, type Sql } from '@tps/database';

/** The print job states the printer is done with. */
const FINISHED_PRINT_JOBS = "('COMPLETED', 'FAILED')";

/**
 * What retention removes from a terminal's store, one small write at a time (contract,
 * "Retention"): transactions dated before a limit with their events, and the print jobs finished
 * before it. Never what the service has not heard yet: a transaction with an event still queued,
 * or a job whose last change is unreported, stays until the uplink has delivered it.
 */
export class TerminalPurge {
  constructor(private readonly writer: SerialWriter) {}

  /**
   * One write: at most `batch` of the terminal's transactions and as many print jobs, dated before
   * `before` (ISO 8601). Resolves the larger of the two counts: below `batch`, nothing is left.
   */
  purgeBatch(serial: string, before: string, batch: number): Promise<number> {
    return this.writer.write(async (manager) => {
      const sql = sqlOf(manager);
      const keys = await this.oldTransactions(sql, serial, before, batch);
      if (keys.length > 0) {
        const list = padded(keys, batch);
        const places = list.map(() => '?').join(', ');
        await sql.run(`DELETE FROM terminal_events WHERE transaction_key IN (${places})`, list);
        await sql.run(`DELETE FROM terminal_transactions WHERE key IN (${places})`, list);
      }
      const jobs = (
        await sql.all<{ seq: number }>(
          'SELECT seq FROM terminal_print_jobs WHERE serial_number = ? AND status IN ' +
            `${FINISHED_PRINT_JOBS} AND reported_version = version AND updated_at < ? LIMIT ?`,
          [serial, before, batch],
        )
      ).map((row) => Number(row.seq));
      if (jobs.length > 0) {
        const list = padded(jobs, batch);
        await sql.run(
          `DELETE FROM terminal_print_jobs WHERE seq IN (${list.map(() => '?').join(', ')})`,
          list,
        );
      }
      return Math.max(keys.length, jobs.length);
    });
  }

  /** The oldest first, by the (serial, date) index; none with an event the service has not acknowledged. */
  private async oldTransactions(sql: Sql, serial: string, before: string, batch: number): Promise<string[]> {
    const rows = await sql.all<{ key: string }>(
      'SELECT t.key AS key FROM terminal_transactions t WHERE t.serial_number = ? AND t.created_at < ? ' +
        'AND NOT EXISTS (SELECT 1 FROM terminal_events e WHERE e.transaction_key = t.key AND NOT e.acked) ' +
        'ORDER BY t.created_at LIMIT ?',
      [serial, before, batch],
    );
    return rows.map((row) => row.key);
  }
}

/** Always `batch` places, the last value repeated: one statement text per batch size, prepared once. */
function padded<T>(values: T[], batch: number): T[] {
  return Array.from({ length: batch }, (_, i) => values[Math.min(i, values.length - 1)]);
}
