import type { DataSource } from 'typeorm';
import type { TransactionCounts } from '../ports/transaction-counts';
import { sqlOf } from '../sql';

/** A statement both stores run alike: PostgreSQL's ports take this adapter as it is (postgres-ports.ts). */
export class SqliteTransactionCounts implements TransactionCounts {
  constructor(private readonly reads: DataSource) {}

  async createdBetween(merchantId: string, fromMs: number, toMs: number): Promise<number> {
    // count(*) is a bigint on PostgreSQL, which node-postgres reads as a string.
    const rows = await sqlOf(this.reads.manager).all<{ count: number | string }>(
      'SELECT COUNT(*) AS count FROM transactions WHERE merchant_id = ? AND created_at_ms >= ? AND created_at_ms < ?',
      [merchantId, fromMs, toMs],
    );
    return Number(rows[0]?.count ?? 0);
  }
}
