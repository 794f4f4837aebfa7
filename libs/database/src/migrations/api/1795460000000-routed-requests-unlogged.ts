import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Routed requests on PostgreSQL in an unlogged table: a row lives for one request's round trip
 * between two replicas, so its writes skip the write-ahead log and their commits wait for no disk
 * flush. A crash of the server empties the table; the callers waiting then answer 504 TER-002, as
 * for a holder that died (contract, "Several replicas on one PostgreSQL database"). SQLite (one
 * process) routes nothing.
 */
export class RoutedRequestsUnlogged1795460000000 implements MigrationInterface {
  name = 'RoutedRequestsUnlogged1795460000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.driver.options.type !== 'postgres') return;
    await queryRunner.query('ALTER TABLE routed_requests SET UNLOGGED');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.driver.options.type !== 'postgres') return;
    await queryRunner.query('ALTER TABLE routed_requests SET LOGGED');
  }
}
