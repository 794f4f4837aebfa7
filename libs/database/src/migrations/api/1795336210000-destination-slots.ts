import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The slots of each webhook destination (docs/contract.md, "Webhook delivery", fairness): an
 * attempt in flight holds one, whichever API process makes it, so that a destination's share of
 * attempts in flight holds across every process sharing the database. Leased like deliveries: a
 * dead process's slots are free again once their leases end.
 */
export class DestinationSlots1795336210000 implements MigrationInterface {
  name = 'DestinationSlots1795336210000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE webhook_destination_slots (destination varchar(2048) NOT NULL, slot integer NOT NULL, ' +
        'owner varchar(128), lease_until varchar(24), PRIMARY KEY (destination, slot))',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE webhook_destination_slots');
  }
}
