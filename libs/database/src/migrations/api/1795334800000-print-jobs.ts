import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

/** Print jobs as the service records them (contract §12). */
export class PrintJobs1795334800000 implements MigrationInterface {
  name = 'PrintJobs1795334800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'print_jobs',
        columns: [
          { name: 'print_job_id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'merchant_id', type: 'varchar', length: '64' },
          { name: 'terminal_serial', type: 'varchar', length: '32' },
          { name: 'status', type: 'varchar', length: '16' },
          { name: 'external_reference', type: 'varchar', length: '128', default: "''" },
          { name: 'webhook_url', type: 'varchar', length: '2048', default: "''" },
          { name: 'transaction_reference', type: 'varchar', length: '36', isNullable: true },
          { name: 'commands', type: 'text' },
          { name: 'error_code', type: 'varchar', length: '16', isNullable: true },
          { name: 'error_message', type: 'varchar', length: '255', isNullable: true },
          { name: 'printed_text', type: 'text', isNullable: true },
          { name: 'callback', type: 'text', isNullable: true },
          { name: 'created_at', type: 'varchar', length: '32' },
          { name: 'updated_at', type: 'varchar', length: '32' },
        ],
        indices: [new TableIndex({ columnNames: ['merchant_id', 'created_at'] })],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('print_jobs');
  }
}
