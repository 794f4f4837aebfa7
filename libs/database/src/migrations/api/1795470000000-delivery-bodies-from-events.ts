import type { MigrationInterface, QueryRunner } from 'typeorm';
import { columnTypes } from '../column-types';

/**
 * A delivery's body stored once, in its event (docs/contract.md, "Rolling deploys"). Expand step:
 * each replica says, on its `api_replicas` row, that it reads a delivery whose `payload` is empty
 * from `transaction_events.envelope`; it says so under its epoch, so a process of the version
 * before, which restarts under the same id without knowing the column, is not taken for one that
 * does. A writer leaves `payload` empty only while every live replica says so. `payload` keeps its
 * NOT NULL: empty, not null, is what the version before could still store.
 */
export class DeliveryBodiesFromEvents1795470000000 implements MigrationInterface {
  name = 'DeliveryBodiesFromEvents1795470000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const types = columnTypes(queryRunner);
    // ADD COLUMN, not TypeORM's addColumn: SQLite would copy the whole table for it.
    await queryRunner.query(`ALTER TABLE api_replicas ADD COLUMN event_bodies_epoch ${types.integer}`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE api_replicas DROP COLUMN event_bodies_epoch');
  }
}
