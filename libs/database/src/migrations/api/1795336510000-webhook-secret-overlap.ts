import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A rotated webhook secret stays in force beside the new one until a moment (contract, "Webhook
 * secret rotation"): sealed like the secret itself, and the end of its overlap (ISO 8601, real time).
 */
export class WebhookSecretOverlap1795336510000 implements MigrationInterface {
  name = 'WebhookSecretOverlap1795336510000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // ADD COLUMN, not TypeORM's addColumn: SQLite would copy the whole table for it.
    await queryRunner.query('ALTER TABLE merchants ADD COLUMN previous_webhook_secret varchar(256)');
    await queryRunner.query('ALTER TABLE merchants ADD COLUMN previous_webhook_secret_until varchar(32)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE merchants DROP COLUMN previous_webhook_secret_until');
    await queryRunner.query('ALTER TABLE merchants DROP COLUMN previous_webhook_secret');
  }
}
