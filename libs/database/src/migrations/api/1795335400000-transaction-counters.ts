import type { MigrationInterface, QueryRunner } from 'typeorm';
import { columnTypes } from '../column-types';

/**
 * Counters on the transaction row: how many events it has and how many deliveries were staged
 * for it. Storing an event or a delivery then reads the row it changes anyway, instead of a COUNT
 * of the events and a MAX of the deliveries' positions in every write.
 */
export class TransactionCounters1795335400000 implements MigrationInterface {
  name = 'TransactionCounters1795335400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const types = columnTypes(queryRunner);
    // ADD COLUMN, not TypeORM's addColumn: SQLite would copy the whole table for it.
    await queryRunner.query(
      `ALTER TABLE transactions ADD COLUMN event_count ${types.integer} NOT NULL DEFAULT 0`,
    );
    await queryRunner.query(
      `ALTER TABLE transactions ADD COLUMN delivery_count ${types.integer} NOT NULL DEFAULT 0`,
    );
    await queryRunner.query(
      'UPDATE transactions SET event_count = (SELECT COUNT(*) FROM transaction_events e WHERE e.transaction_id = transactions.id)',
    );
    await queryRunner.query(
      'UPDATE transactions SET delivery_count = (SELECT COALESCE(MAX(d.position), 0) FROM webhook_deliveries d WHERE d.transaction_id = transactions.id)',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE transactions DROP COLUMN delivery_count');
    await queryRunner.query('ALTER TABLE transactions DROP COLUMN event_count');
  }
}
