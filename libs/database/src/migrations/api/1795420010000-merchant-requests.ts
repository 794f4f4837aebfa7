import type { MigrationInterface, QueryRunner } from 'typeorm';
import { columnTypes } from '../column-types';

/**
 * A merchant's recent requests (`GET /sandbox/requests`), kept where several replicas on one
 * database all read them: the last 100 per merchant, never a header or a body. One process keeps
 * them in memory and leaves this table empty.
 */
export class MerchantRequests1795420010000 implements MigrationInterface {
  name = 'MerchantRequests1795420010000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const types = columnTypes(queryRunner);
    await queryRunner.query(
      `CREATE TABLE merchant_requests (
        id varchar(36) NOT NULL,
        merchant_id varchar(64) NOT NULL,
        at_ms ${types.integer} NOT NULL,
        method varchar(16) NOT NULL,
        path text NOT NULL,
        status ${types.integer} NOT NULL,
        duration_us ${types.integer} NOT NULL,
        request_id varchar(128) NOT NULL,
        CONSTRAINT "PK_merchant_requests" PRIMARY KEY (id)
      )`,
    );
    await queryRunner.query(
      'CREATE INDEX idx_merchant_requests_merchant ON merchant_requests (merchant_id, at_ms)',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE merchant_requests');
  }
}
