import type { EntityManager } from 'typeorm';
import type { AccountRows } from '../ports/account-rows';
import { sqlOf } from '../sql';
import { STAMP_ACTIVITY } from './sqlite-merchant-activity';

/**
 * Statements both stores run alike: PostgreSQL's ports take this adapter as it is (postgres-ports.ts).
 * The rows go by their tables' names (TypeORM finds their entities by them): children first, each
 * found through the merchant's rows.
 */
export class SqliteAccountRows implements AccountRows {
  async stampActive(within: EntityManager, merchantId: string, atMs: number): Promise<void> {
    await sqlOf(within).run(STAMP_ACTIVITY, [atMs, merchantId]);
  }

  async eraseActivity(within: EntityManager, merchantId: string): Promise<void> {
    const ofMerchant = (table: string, column: string): string =>
      `${column} IN (SELECT id FROM ${table} WHERE merchant_id = :merchantId)`;
    await within
      .createQueryBuilder()
      .delete()
      .from('webhook_delivery_attempts')
      .where(ofMerchant('webhook_deliveries', 'delivery_id'), { merchantId })
      .execute();
    await within.delete('webhook_deliveries', { merchantId });
    await within
      .createQueryBuilder()
      .delete()
      .from('transaction_events')
      .where(ofMerchant('transactions', 'transaction_id'), { merchantId })
      .execute();
    await within.delete('transactions', { merchantId });
    await within.delete('print_jobs', { merchantId });
  }
}
