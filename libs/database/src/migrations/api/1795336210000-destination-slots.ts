import { Table, type MigrationInterface, type QueryRunner } from 'typeorm';
import { columnTypes } from '../column-types';

/**
 * The slots of each webhook destination (docs/contract.md, "Webhook delivery", fairness): an
 * attempt in flight holds one, whichever API process makes it, so that a destination's share of
 * attempts in flight holds across every process sharing the database. Leased like deliveries: a
 * dead process's slots are free again once their leases end.
 */
export class DestinationSlots1795336210000 implements MigrationInterface {
  name = 'DestinationSlots1795336210000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const types = columnTypes(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'webhook_destination_slots',
        columns: [
          { name: 'destination', type: 'varchar', length: '2048', isPrimary: true },
          { name: 'slot', type: types.integer, isPrimary: true },
          { name: 'owner', type: 'varchar', length: '128', isNullable: true },
          { name: 'lease_until', type: 'varchar', length: '24', isNullable: true },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('webhook_destination_slots');
  }
}
