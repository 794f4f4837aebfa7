import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Lease epochs (docs/contract.md, "Several replicas"): each claim of a delivery or of a print
 * job's callback counts its epoch up, and a result is recorded only under the epoch its process
 * claimed it at, so an attempt from an earlier lease of the same process records nothing. Expand
 * only ("Rolling deploys"): columns with a default, which the version before leaves at 0.
 */
export class LeaseEpochs1796700000000 implements MigrationInterface {
  name = 'LeaseEpochs1796700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // ADD COLUMN, not TypeORM's addColumn: SQLite would copy the whole table for it.
    await queryRunner.query(
      'ALTER TABLE webhook_deliveries ADD COLUMN lease_epoch integer NOT NULL DEFAULT 0',
    );
    await queryRunner.query(
      'ALTER TABLE print_jobs ADD COLUMN callback_lease_epoch integer NOT NULL DEFAULT 0',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE print_jobs DROP COLUMN callback_lease_epoch');
    await queryRunner.query('ALTER TABLE webhook_deliveries DROP COLUMN lease_epoch');
  }
}
