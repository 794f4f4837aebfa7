import type { MigrationInterface, QueryRunner } from 'typeorm';
import { columnTypes } from '../column-types';

/**
 * Several API replicas on one database (contract, scale-out): each replica with its epoch and
 * heartbeat; which replica holds each terminal's uplink and each fleet share's control link
 * (written when a link opens or closes, never per heartbeat: a replica whose heartbeat lapsed
 * holds nothing); and the requests one replica hands to the replica that holds the link, with
 * their replies.
 */
export class ReplicaRouting1795336000000 implements MigrationInterface {
  name = 'ReplicaRouting1795336000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // Primary keys named as TypeORM names its own (`PK_…`), so that both stores list them alike.
    const types = columnTypes(queryRunner);
    await queryRunner.query(
      `CREATE TABLE api_replicas (
        id varchar(128) NOT NULL,
        epoch ${types.integer} NOT NULL,
        started_at ${types.time} NOT NULL,
        heartbeat_at ${types.time} NOT NULL,
        CONSTRAINT "PK_api_replicas" PRIMARY KEY (id)
      )`,
    );
    await queryRunner.query(
      `CREATE TABLE terminal_uplinks (
        serial_number varchar(64) NOT NULL,
        replica_id varchar(128) NOT NULL,
        replica_epoch ${types.integer} NOT NULL,
        linked_at ${types.time} NOT NULL,
        CONSTRAINT "PK_terminal_uplinks" PRIMARY KEY (serial_number)
      )`,
    );
    await queryRunner.query(
      `CREATE TABLE share_holders (
        share varchar(64) NOT NULL,
        instance varchar(64) NOT NULL,
        epoch ${types.integer} NOT NULL,
        replica_id varchar(128) NOT NULL,
        replica_epoch ${types.integer} NOT NULL,
        since ${types.time} NOT NULL,
        CONSTRAINT "PK_share_holders" PRIMARY KEY (share)
      )`,
    );
    await queryRunner.query(
      `CREATE TABLE routed_requests (
        id varchar(36) NOT NULL,
        replica_id varchar(128) NOT NULL,
        replica_epoch ${types.integer} NOT NULL,
        link varchar(16) NOT NULL,
        serial_number varchar(64) NOT NULL,
        request text NOT NULL,
        timeout_ms ${types.integer} NOT NULL,
        state varchar(16) NOT NULL,
        reply text,
        created_at ${types.time} NOT NULL,
        CONSTRAINT "PK_routed_requests" PRIMARY KEY (id)
      )`,
    );
    await queryRunner.query(
      'CREATE INDEX idx_routed_requests_replica ON routed_requests (replica_id, state)',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE routed_requests');
    await queryRunner.query('DROP TABLE share_holders');
    await queryRunner.query('DROP TABLE terminal_uplinks');
    await queryRunner.query('DROP TABLE api_replicas');
  }
}
