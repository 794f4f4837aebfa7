import type { DataSource } from 'typeorm';
import type { RetentionRows, SweptMerchant } from '../ports/retention-rows';
import type { SerialWriter } from '../serial-writer';
import { sqlOf } from '../sql';
import { merchantOf, printJobsBefore, type MerchantRow } from '../retention-values';

/**
 * A batch is one statement: each part a data-modifying WITH, all reading the rows as they were
 * before it (no foreign keys: the parts may go in any order).
 */
const REMOVE_BATCH = `WITH doomed AS (
    SELECT id FROM transactions WHERE merchant_id = ? AND created_at_ms < ? LIMIT ?),
  attempts AS (DELETE FROM webhook_delivery_attempts WHERE delivery_id IN (
    SELECT id FROM webhook_deliveries WHERE transaction_id IN (SELECT id FROM doomed))),
  deliveries AS (DELETE FROM webhook_deliveries WHERE transaction_id IN (SELECT id FROM doomed)),
  events AS (DELETE FROM transaction_events WHERE transaction_id IN (SELECT id FROM doomed)),
  transactions_gone AS (DELETE FROM transactions WHERE id IN (SELECT id FROM doomed) RETURNING 1),
  jobs_gone AS (DELETE FROM print_jobs WHERE print_job_id IN (
    SELECT print_job_id FROM print_jobs WHERE merchant_id = ? AND created_at < ? LIMIT ?) RETURNING 1)
  SELECT (SELECT count(*) FROM transactions_gone) AS transactions, (SELECT count(*) FROM jobs_gone) AS jobs`;

export class PostgresRetentionRows implements RetentionRows {
  constructor(
    private readonly reads: DataSource,
    private readonly writer: SerialWriter,
  ) {}

  async startIdleTime(prefix: string, nowMs: number): Promise<void> {
    await this.writer.writeOne((manager) =>
      sqlOf(manager).run(
        'UPDATE merchants SET last_active_at_ms = ? WHERE last_active_at_ms IS NULL AND starts_with(merchant_id, ?)',
        [nowMs, prefix],
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
    return this.writer.writeOne(async (manager) => {
      // count(*) is a bigint, which node-postgres reads as a string.
      const [removed] = await sqlOf(manager).all<{ transactions: string; jobs: string }>(REMOVE_BATCH, [
        merchantId,
        beforeMs,
        limit,
        merchantId,
        printJobsBefore(beforeMs),
        limit,
      ]);
      return Math.max(Number(removed.transactions), Number(removed.jobs));
    });
  }
}
