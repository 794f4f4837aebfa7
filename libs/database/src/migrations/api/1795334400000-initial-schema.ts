import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { columnTypes } from '../column-types';

export class InitialApiSchema1795334400000 implements MigrationInterface {
  name = 'InitialApiSchema1795334400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const types = columnTypes(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'merchants',
        columns: [
          { name: 'merchant_id', type: 'varchar', length: '64', isPrimary: true },
          { name: 'secret_key', type: 'varchar', length: '128' },
          { name: 'bound_terminal_serial', type: 'varchar', length: '32', isNullable: true },
          { name: 'webhook_secret', type: 'varchar', length: '128', isNullable: true },
          { name: 'clock_offset_seconds', type: types.integer, default: 0 },
          { name: 'created_at', type: types.time, default: 'CURRENT_TIMESTAMP' },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'terminals',
        columns: [
          { name: 'serial_number', type: 'varchar', length: '32', isPrimary: true },
          { name: 'merchant_id', type: 'varchar', length: '64' },
          { name: 'model', type: 'varchar', length: '64' },
          { name: 'wifi_mac', type: 'varchar', length: '32' },
          { name: 'room', type: 'varchar', length: '64' },
          { name: 'pace', type: 'varchar', length: '16' },
          { name: 'printer', type: 'varchar', length: '16', default: "'ok'" },
          { name: 'offline', type: 'boolean', default: false },
          { name: 'created_at', type: types.time, default: 'CURRENT_TIMESTAMP' },
        ],
        indices: [new TableIndex({ columnNames: ['merchant_id'] })],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'transactions',
        columns: [
          { name: 'id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'merchant_id', type: 'varchar', length: '64' },
          { name: 'client_transaction_id', type: 'varchar', length: '36' },
          { name: 'fingerprint', type: 'varchar', length: '64' },
          { name: 'operation_type', type: 'varchar', length: '24' },
          { name: 'mode', type: 'varchar', length: '8' },
          { name: 'form', type: 'varchar', length: '8' },
          { name: 'terminal_serial', type: 'varchar', length: '32' },
          { name: 'status', type: 'varchar', length: '24', isNullable: true },
          { name: 'amount', type: 'text' },
          { name: 'tip', type: types.integer, default: 0 },
          { name: 'metadata', type: 'text' },
          { name: 'events_webhook_url', type: 'varchar', length: '2048', default: "''" },
          { name: 'transaction_reference', type: 'varchar', length: '36', isNullable: true },
          { name: 'target_reference', type: 'varchar', length: '36', isNullable: true },
          { name: 'acknowledgement', type: 'text', isNullable: true },
          { name: 'outcome', type: 'text', isNullable: true },
          { name: 'created_at', type: types.time, default: 'CURRENT_TIMESTAMP' },
          { name: 'updated_at', type: types.time, default: 'CURRENT_TIMESTAMP' },
        ],
        indices: [
          new TableIndex({ columnNames: ['merchant_id', 'client_transaction_id'], isUnique: true }),
          new TableIndex({ columnNames: ['merchant_id', 'created_at'] }),
          new TableIndex({ columnNames: ['transaction_reference'] }),
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'transaction_events',
        columns: [
          { name: 'event_id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'transaction_id', type: 'varchar', length: '36' },
          { name: 'sequence', type: types.integer },
          { name: 'status', type: 'varchar', length: '24' },
          { name: 'previous_status', type: 'varchar', length: '24' },
          { name: 'occurred_at', type: 'varchar', length: '32' },
          { name: 'envelope', type: 'text' },
          { name: 'received_at', type: types.time, default: 'CURRENT_TIMESTAMP' },
        ],
        indices: [new TableIndex({ columnNames: ['transaction_id', 'sequence'], isUnique: true })],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['transaction_events', 'transactions', 'terminals', 'merchants']) {
      await queryRunner.dropTable(table);
    }
  }
}
