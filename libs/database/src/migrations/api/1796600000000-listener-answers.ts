import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What each `listen` connection answered to its copy of a webhook attempt, recorded beside the
 * attempt (contract §6.1): JSON, null when none was open. Expand only: a nullable column.
 */
export class ListenerAnswers1796600000000 implements MigrationInterface {
  name = 'ListenerAnswers1796600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // ADD COLUMN, not TypeORM's addColumn: SQLite would copy the whole table for it.
    await queryRunner.query('ALTER TABLE webhook_delivery_attempts ADD COLUMN listener_answers text');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE webhook_delivery_attempts DROP COLUMN listener_answers');
  }
}
