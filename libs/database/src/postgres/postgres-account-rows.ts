import type { EntityManager } from 'typeorm';
import { sqlOf } from '../sql';
import { MERCHANT_ROW, SqliteAccountRows } from '../sqlite/sqlite-account-rows';

/** SQLite's statements, the merchant's row locked until the write commits. */
export class PostgresAccountRows extends SqliteAccountRows {
  override async holdMerchant(within: EntityManager, merchantId: string): Promise<boolean> {
    return (await sqlOf(within).all(`${MERCHANT_ROW} FOR UPDATE`, [merchantId])).length > 0;
  }
}
