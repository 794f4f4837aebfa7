import type { MigrationInterface, QueryRunner } from 'typeorm';
import { columnTypes } from '../column-types';

/**
 * Conformance runs (docs/contract.md, "The conformance run"), kept where several replicas on one
 * database all read them: the replica that started a run writes its report as it grows. One
 * process keeps them in memory and leaves this table empty.
 */
export class ConformanceRuns1795420020000 implements MigrationInterface {
  name = 'ConformanceRuns1795420020000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const types = columnTypes(queryRunner);
    await queryRunner.query(
      `CREATE TABLE conformance_runs (
        id varchar(36) NOT NULL,
        merchant_id varchar(64) NOT NULL,
        url text NOT NULL,
        cases text NOT NULL,
        started_at_ms ${types.integer} NOT NULL,
        finished_at_ms ${types.integer},
        results text NOT NULL,
        CONSTRAINT "PK_conformance_runs" PRIMARY KEY (id)
      )`,
    );
    await queryRunner.query(
      'CREATE INDEX idx_conformance_runs_merchant ON conformance_runs (merchant_id, started_at_ms)',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE conformance_runs');
  }
}
