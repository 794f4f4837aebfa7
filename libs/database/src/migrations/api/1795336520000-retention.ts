import { Table, type MigrationInterface, type QueryRunner } from 'typeorm';
import { columnTypes } from '../column-types';

/**
 * Retention (contract, "Retention"): when a merchant was last active, on its own clock (idle sandbox
 * accounts are deleted), and a lease row that lets one replica at a time sweep.
 */
export class Retention1795336520000 implements MigrationInterface {
  name = 'Retention1795336520000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const types = columnTypes(queryRunner);
    // ADD COLUMN, not TypeORM's addColumn: SQLite would copy the whole table for it.
    await queryRunner.query(`ALTER TABLE merchants ADD COLUMN last_active_at_ms ${types.integer}`);
    await queryRunner.createTable(
      new Table({
        name: 'maintenance_leases',
        columns: [
          { name: 'name', type: 'varchar', length: '64', isPrimary: true },
          { name: 'holder', type: 'varchar', length: '160', default: "''" },
          { name: 'expires_at_ms', type: types.integer, default: 0 },
        ],
      }),
    );
    await queryRunner.query("INSERT INTO maintenance_leases (name) VALUES ('retention')");
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('maintenance_leases');
    await queryRunner.query('ALTER TABLE merchants DROP COLUMN last_active_at_ms');
  }
}
