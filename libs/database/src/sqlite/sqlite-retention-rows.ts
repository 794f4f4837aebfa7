import type { DataSource } from 'typeorm';
import type { RetentionRows, SweptMerchant } from '../ports/retention-rows';
import type { SerialWriter } from '../serial-writer';
import { sqlOf, type Sql } from '../sql';
import { merchantOf, printJobsBefore, type MerchantRow } from '../retention-values';

export class SqliteRetentionRows implements RetentionRows {
  constructor(
    private readonly reads: DataSource,
    private readonly writer: SerialWriter,
  ) {}

  async startIdleTime(prefix: string, nowMs: number): Promise<void> {
    await this.writer.write((manager) =>
      sqlOf(manager).run(
        'UPDATE merchants SET last_active_at_ms = ? WHERE last_active_at_ms IS NULL AND substr(merchant_id, 1, ?) = ?',
        [nowMs, prefix.length, prefix],
      ),
    );
  }

  async merchants(after: string, limit: number): Promise<SweptMerchant[]> {
    const rows = await sqlOf(this.reads.manager).all<MerchantRow>(
      'SELECT merchant_id, clock_offset_seconds, last_active_at_ms FROM merchants ' +
        'WHERE merchant_id > ? ORDER BY merchant_id LIMIT ?',
      [after, limit],
    );
    return rows.map(merchantOf);
  }

  removeBatch(merchantId: string, beforeMs: number, limit: number): Promise<number> {
    return this.writer.write((manager) => removeBatch(sqlOf(manager), merchantId, beforeMs, limit));
  }
}

/** Statements prepared once each: a list always has `limit` places, its last id repeated. */
async function removeBatch(sql: Sql, merchantId: string, beforeMs: number, limit: number): Promise<number> {
  const ids = (
    await sql.all<{ id: string }>(
      'SELECT id FROM transactions WHERE merchant_id = ? AND created_at_ms < ? LIMIT ?',
      [merchantId, beforeMs, limit],
    )
  ).map((row) => row.id);
  const jobs = (
    await sql.all<{ id: string }>(
      'SELECT print_job_id AS id FROM print_jobs WHERE merchant_id = ? AND created_at < ? LIMIT ?',
      [merchantId, printJobsBefore(beforeMs), limit],
    )
  ).map((row) => row.id);
  if (ids.length > 0) {
    const list = Array.from({ length: limit }, (_, i) => ids[Math.min(i, ids.length - 1)]);
    const places = list.map(() => '?').join(', ');
    await sql.run(
      'DELETE FROM webhook_delivery_attempts WHERE delivery_id IN ' +
        `(SELECT id FROM webhook_deliveries WHERE transaction_id IN (${places}))`,
      list,
    );
    await sql.run(`DELETE FROM webhook_deliveries WHERE transaction_id IN (${places})`, list);
    await sql.run(`DELETE FROM transaction_events WHERE transaction_id IN (${places})`, list);
    await sql.run(`DELETE FROM transactions WHERE id IN (${places})`, list);
  }
  if (jobs.length > 0) {
    const list = Array.from({ length: limit }, (_, i) => jobs[Math.min(i, jobs.length - 1)]);
    await sql.run(`DELETE FROM print_jobs WHERE print_job_id IN (${list.map(() => '?').join(', ')})`, list);
  }
  return Math.max(ids.length, jobs.length);
}
