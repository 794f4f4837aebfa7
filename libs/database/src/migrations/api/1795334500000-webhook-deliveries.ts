import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { columnTypes } from '../column-types';

/** The webhook outbox: a row per event to deliver, a row per attempt (contract §6, §11). */
export class WebhookDeliveries1795334500000 implements MigrationInterface {
  name = 'WebhookDeliveries1795334500000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const types = columnTypes(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'webhook_deliveries',
        columns: [
          { name: 'id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'merchant_id', type: 'varchar', length: '64' },
          { name: 'transaction_id', type: 'varchar', length: '36' },
          { name: 'position', type: types.integer },
          { name: 'client_transaction_id', type: 'varchar', length: '36' },
          { name: 'event_id', type: 'varchar', length: '36' },
          { name: 'event_status', type: 'varchar', length: '24' },
          { name: 'url', type: 'varchar', length: '2048' },
          { name: 'payload', type: 'text' },
          { name: 'state', type: 'varchar', length: '16' },
          { name: 'failure', type: 'varchar', length: '24', isNullable: true },
          { name: 'attempt_count', type: types.integer, default: 0 },
          { name: 'first_attempt_at', type: 'varchar', length: '24', isNullable: true },
          { name: 'next_attempt_at', type: 'varchar', length: '24', isNullable: true },
          { name: 'redelivery_of', type: 'varchar', length: '36', isNullable: true },
          { name: 'created_at', type: 'varchar', length: '24' },
        ],
        indices: [
          new TableIndex({ columnNames: ['transaction_id', 'position'], isUnique: true }),
          new TableIndex({ columnNames: ['merchant_id', 'client_transaction_id'] }),
          new TableIndex({ columnNames: ['event_id'] }),
          new TableIndex({ columnNames: ['state'] }),
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'webhook_delivery_attempts',
        columns: [
          { name: 'delivery_id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'n', type: types.integer, isPrimary: true },
          { name: 'at', type: 'varchar', length: '24' },
          { name: 'status_code', type: types.integer, isNullable: true },
          { name: 'error', type: 'varchar', length: '24', isNullable: true },
          { name: 'latency_ms', type: types.integer },
          { name: 'answer_excerpt', type: 'text' },
          { name: 'next_attempt_at', type: 'varchar', length: '24', isNullable: true },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('webhook_delivery_attempts');
    await queryRunner.dropTable('webhook_deliveries');
  }
}
