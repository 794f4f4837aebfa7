import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The client address that started each conformance run (docs/contract.md, "Hard caps"), so that
 * replicas on one database count an address's runs going on from what is stored. Expand only
 * ("Rolling deploys"): a nullable column, which the version before leaves empty.
 */
export class ConformanceRunAddresses1796800000000 implements MigrationInterface {
  name = 'ConformanceRunAddresses1796800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // ADD COLUMN, not TypeORM's addColumn: SQLite would copy the whole table for it.
    await queryRunner.query('ALTER TABLE conformance_runs ADD COLUMN client_address varchar(64)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE conformance_runs DROP COLUMN client_address');
  }
}
