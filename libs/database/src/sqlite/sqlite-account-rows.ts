import type { EntityManager } from 'typeorm';
import type { AccountRows } from '../ports/account-rows';
import { sqlOf } from '../sql';
import { STAMP_ACTIVITY } from './sqlite-merchant-activity';

/** What the merchant did, children first, each found through the merchant's rows: `merchantId` each. */
const ERASE_ACTIVITY = [
  'DELETE FROM webhook_delivery_attempts WHERE delivery_id IN (SELECT id FROM webhook_deliveries WHERE merchant_id = ?)',
  'DELETE FROM webhook_deliveries WHERE merchant_id = ?',
  'DELETE FROM transaction_events WHERE transaction_id IN (SELECT id FROM transactions WHERE merchant_id = ?)',
  'DELETE FROM transactions WHERE merchant_id = ?',
  'DELETE FROM print_jobs WHERE merchant_id = ?',
];

/** The merchant's row, if stored. */
export const MERCHANT_ROW = 'SELECT merchant_id FROM merchants WHERE merchant_id = ?';

/**
 * Statements both stores run alike, PostgreSQL's adapter taking them but for the lock
 * (postgres-account-rows.ts).
 */
export class SqliteAccountRows implements AccountRows {
  /** The write holds the whole file from its BEGIN IMMEDIATE: the row needs no lock of its own. */
  async holdMerchant(within: EntityManager, merchantId: string): Promise<boolean> {
    return (await sqlOf(within).all(MERCHANT_ROW, [merchantId])).length > 0;
  }

  async stampActive(within: EntityManager, merchantId: string, atMs: number): Promise<void> {
    await sqlOf(within).run(STAMP_ACTIVITY, [atMs, merchantId]);
  }

  async eraseActivity(within: EntityManager, merchantId: string): Promise<void> {
    const sql = sqlOf(within);
    for (const statement of ERASE_ACTIVITY) await sql.run(statement, [merchantId]);
  }
}
