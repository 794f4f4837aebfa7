import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Leased print callbacks (docs/contract.md, "Print jobs"): a finished job's one webhook attempt is
 * made by the API process that holds it, and a dead process's are taken over once their leases
 * end, as webhook deliveries are.
 */
export class PrintCallbackLeases1795336220000 implements MigrationInterface {
  name = 'PrintCallbackLeases1795336220000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // ADD COLUMN, not TypeORM's addColumn: SQLite would copy the whole table for it.
    await queryRunner.query('ALTER TABLE print_jobs ADD COLUMN callback_owner varchar(128)');
    await queryRunner.query('ALTER TABLE print_jobs ADD COLUMN callback_lease_until varchar(24)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE print_jobs DROP COLUMN callback_lease_until');
    await queryRunner.query('ALTER TABLE print_jobs DROP COLUMN callback_owner');
  }
}
