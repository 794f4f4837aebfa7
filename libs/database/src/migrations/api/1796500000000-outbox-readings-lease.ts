import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The lease of the outbox's readings for the metrics: one replica at a time reads the whole
 * cluster's outbox in the background and exports it. Expand only: a row of `maintenance_leases`.
 */
export class OutboxReadingsLease1796500000000 implements MigrationInterface {
  name = 'OutboxReadingsLease1796500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("INSERT INTO maintenance_leases (name) VALUES ('outbox-readings')");
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("DELETE FROM maintenance_leases WHERE name = 'outbox-readings'");
  }
}
