import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Leased deliveries (docs/contract.md, "Webhook delivery"): the process that holds a pending
 * delivery and until when. Several API processes share the outbox; each attempt is made by the
 * one that holds the lease, and a lease that ends unrenewed (its process died) is taken over.
 * Rows pending before this migration have no lease, so whichever process starts first takes them.
 */
export class DeliveryLeases1795336200000 implements MigrationInterface {
  name = 'DeliveryLeases1795336200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // ADD COLUMN, not TypeORM's addColumn: SQLite would copy the whole table for it.
    await queryRunner.query('ALTER TABLE webhook_deliveries ADD COLUMN lease_owner varchar(128)');
    // ISO 8601 UTC, as every other time of the outbox: compared as text, in order.
    await queryRunner.query('ALTER TABLE webhook_deliveries ADD COLUMN lease_until varchar(24)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE webhook_deliveries DROP COLUMN lease_until');
    await queryRunner.query('ALTER TABLE webhook_deliveries DROP COLUMN lease_owner');
  }
}
