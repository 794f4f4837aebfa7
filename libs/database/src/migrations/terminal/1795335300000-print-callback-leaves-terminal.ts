import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * The service sends the print webhook once it has stored the job's result (contract §13), so the
 * terminal no longer keeps a callback outcome of its own.
 */
export class PrintCallbackLeavesTerminal1795335300000 implements MigrationInterface {
  name = 'PrintCallbackLeavesTerminal1795335300000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('terminal_print_jobs', 'callback');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn(
      'terminal_print_jobs',
      new TableColumn({ name: 'callback', type: 'text', isNullable: true }),
    );
  }
}
