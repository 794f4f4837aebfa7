import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { columnTypes } from '../column-types';

export class InitialTerminalSchema1795334400000 implements MigrationInterface {
  name = 'InitialTerminalSchema1795334400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const types = columnTypes(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'terminal_transactions',
        columns: [
          { name: 'key', type: 'varchar', length: '120', isPrimary: true },
          { name: 'serial_number', type: 'varchar', length: '32' },
          { name: 'order', type: 'text' },
          { name: 'status', type: 'varchar', length: '24' },
          { name: 'outcome', type: 'text', isNullable: true },
          { name: 'created_at', type: 'varchar', length: '32' },
        ],
        indices: [new TableIndex({ columnNames: ['serial_number', 'created_at'] })],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'terminal_events',
        columns: [
          {
            name: 'seq',
            type: types.integer,
            isPrimary: true,
            isGenerated: true,
            generationStrategy: 'increment',
          },
          { name: 'serial_number', type: 'varchar', length: '32' },
          { name: 'transaction_key', type: 'varchar', length: '120' },
          { name: 'event_id', type: 'varchar', length: '36', isUnique: true },
          { name: 'envelope', type: 'text' },
          { name: 'outcome', type: 'text', isNullable: true },
          { name: 'acked', type: 'boolean', default: false },
        ],
        indices: [
          new TableIndex({ columnNames: ['serial_number', 'acked', 'seq'] }),
          new TableIndex({ columnNames: ['transaction_key', 'seq'] }),
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('terminal_events');
    await queryRunner.dropTable('terminal_transactions');
  }
}
