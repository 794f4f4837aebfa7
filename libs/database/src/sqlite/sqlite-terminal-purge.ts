import type { TerminalPurge } from '../ports/terminal-purge';
import type { SerialWriter } from '../serial-writer';
import { sqlOf, type Sql } from '../sql';

/** The print job states the printer is done with. */
const FINISHED_PRINT_JOBS = "('COMPLETED', 'FAILED')";

/** Statements prepared once each: a list always has `batch` places, its last value repeated. */
export class SqliteTerminalPurge implements TerminalPurge {
  constructor(private readonly writer: SerialWriter) {}

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
