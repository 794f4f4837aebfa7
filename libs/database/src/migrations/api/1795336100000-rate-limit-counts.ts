import { Table, type MigrationInterface, type QueryRunner } from 'typeorm';
import { columnTypes } from '../column-types';

/**
 * Admissions of the rate limits per replica and time bucket, so that replicas on one database
 * hold one limit between them (contract, "Several replicas"). Rows older than a
 * window are deleted as they age; SQLite (one process) never writes any.
 */
export class RateLimitCounts1795336100000 implements MigrationInterface {
  name = 'RateLimitCounts1795336100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const { integer } = columnTypes(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'rate_limit_counts',
        columns: [
          { name: 'scope', type: 'varchar', length: '32', isPrimary: true },
          { name: 'rate_key', type: 'varchar', length: '128', isPrimary: true },
          { name: 'replica', type: 'varchar', length: '36', isPrimary: true },
          { name: 'bucket', type: integer, isPrimary: true },
          { name: 'admitted', type: integer },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('rate_limit_counts');
  }
}
