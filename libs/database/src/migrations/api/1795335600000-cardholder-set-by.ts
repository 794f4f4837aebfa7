import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When and from which client address a sandbox terminal's `cardholder: manual` was set (contract
 * §15): the console shows it to everyone watching the merchant, and `manual` lapses back to `auto`.
 */
export class CardholderSetBy1795335600000 implements MigrationInterface {
  name = 'CardholderSetBy1795335600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // ADD COLUMN, not TypeORM's addColumn: SQLite would copy the whole table for it.
    await queryRunner.query('ALTER TABLE terminals ADD COLUMN cardholder_set_at varchar(32)');
    await queryRunner.query('ALTER TABLE terminals ADD COLUMN cardholder_set_from varchar(64)');
    // A terminal already manual starts its lapse now rather than never (the literal is our own ISO).
    const now = new Date().toISOString();
    await queryRunner.query(
      `UPDATE terminals SET cardholder_set_at = '${now}', cardholder_set_from = 'unknown' WHERE cardholder = 'manual'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE terminals DROP COLUMN cardholder_set_from');
    await queryRunner.query('ALTER TABLE terminals DROP COLUMN cardholder_set_at');
  }
}
