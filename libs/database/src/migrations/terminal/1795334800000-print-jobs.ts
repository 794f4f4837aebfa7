import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { columnTypes } from '../column-types';

/** The terminal's print queue (contract §12). */
export class TerminalPrintJobs1795334800000 implements MigrationInterface {
  name = 'TerminalPrintJobs1795334800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const types = columnTypes(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'terminal_print_jobs',
        columns: [
          {
            name: 'seq',
            type: types.integer,
            isPrimary: true,
            isGenerated: true,
            generationStrategy: 'increment',
          },
          { name: 'print_job_id', type: 'varchar', length: '36', isUnique: true },
          { name: 'serial_number', type: 'varchar', length: '32' },
          { name: 'order', type: 'text' },
          { name: 'status', type: 'varchar', length: '16' },
          { name: 'error_code', type: 'varchar', length: '16', isNullable: true },
          { name: 'error_message', type: 'varchar', length: '255', isNullable: true },
          { name: 'printed_text', type: 'text', isNullable: true },
          { name: 'callback', type: 'text', isNullable: true },
          { name: 'version', type: types.integer, default: 1 },
          { name: 'reported_version', type: types.integer, default: 0 },
          { name: 'updated_at', type: 'varchar', length: '32' },
        ],
        indices: [new TableIndex({ columnNames: ['serial_number', 'status', 'seq'] })],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('terminal_print_jobs');
  }
}
