import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The lease of the sweep that removes the routed requests their callers left behind (a caller
 * that died while it waited): one replica at a time sweeps.
 */
export class RoutedRequestSweep1795420000000 implements MigrationInterface {
  name = 'RoutedRequestSweep1795420000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("INSERT INTO maintenance_leases (name) VALUES ('routed-requests')");
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("DELETE FROM maintenance_leases WHERE name = 'routed-requests'");
  }
}
