import { TableColumn, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { columnTypes } from '../column-types';

/**
 * The business state of approved transactions (contract §9) and a creation time in merchant-clock
 * milliseconds, which orders and pages transaction search the same way on every database.
 */
export class BusinessState1795334600000 implements MigrationInterface {
  name = 'BusinessState1795334600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const types = columnTypes(queryRunner);
    await queryRunner.addColumns('transactions', [
      new TableColumn({ name: 'business_state', type: 'varchar', length: '24', isNullable: true }),
      new TableColumn({ name: 'business_amount', type: 'text', isNullable: true }),
      new TableColumn({ name: 'business_tip', type: types.integer, default: 0 }),
      new TableColumn({ name: 'refunded_total', type: types.integer, default: 0 }),
      new TableColumn({ name: 'card_type', type: 'varchar', length: '16', isNullable: true }),
      new TableColumn({ name: 'approved_at_ms', type: 'bigint', isNullable: true }),
      new TableColumn({ name: 'valid_from_ms', type: 'bigint', isNullable: true }),
      new TableColumn({ name: 'created_at_ms', type: 'bigint', default: 0 }),
    ]);
    const sqlite = queryRunner.connection.driver.options.type === 'sqlite';
    await queryRunner.query(
      sqlite
        ? `UPDATE transactions SET created_at_ms = CAST(ROUND((julianday(created_at) - 2440587.5) * 86400000) AS INTEGER)`
        : `UPDATE transactions SET created_at_ms = CAST(EXTRACT(EPOCH FROM created_at) * 1000 AS BIGINT)`,
    );
    await queryRunner.createIndices('transactions', [
      new TableIndex({ columnNames: ['merchant_id', 'created_at_ms'] }),
      new TableIndex({ columnNames: ['target_reference'] }),
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const table = await queryRunner.getTable('transactions');
    for (const index of table?.indices ?? []) {
      const columns = index.columnNames.join(',');
      if (columns === 'merchant_id,created_at_ms' || columns === 'target_reference') {
        await queryRunner.dropIndex('transactions', index);
      }
    }
    for (const column of [
      'business_state',
      'business_amount',
      'business_tip',
      'refunded_total',
      'card_type',
      'approved_at_ms',
      'valid_from_ms',
      'created_at_ms',
    ]) {
      await queryRunner.dropColumn('transactions', column);
    }
  }
}
