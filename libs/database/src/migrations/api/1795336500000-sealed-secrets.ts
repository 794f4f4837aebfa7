import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Room for sealed secrets (contract, "Secrets at rest"): a 128-character secret sealed with its
 * key id, nonce and tag takes about 240. The values are sealed by the service when it starts,
 * which holds the key; a migration does not.
 */
export class SealedSecrets1795336500000 implements MigrationInterface {
  name = 'SealedSecrets1795336500000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await widen(queryRunner, 256);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await widen(queryRunner, 128);
  }
}

async function widen(queryRunner: QueryRunner, length: number): Promise<void> {
  for (const [name, isNullable] of [
    ['secret_key', false],
    ['webhook_secret', true],
  ] as const) {
    if (queryRunner.connection.driver.options.type === 'sqlite') {
      // SQLite cannot alter a column: TypeORM copies the table (a few rows: the merchants).
      await queryRunner.changeColumn(
        'merchants',
        name,
        new TableColumn({ name, type: 'varchar', length: String(length), isNullable }),
      );
    } else {
      // Not changeColumn: on PostgreSQL it drops the column and adds it again, empty.
      await queryRunner.query(`ALTER TABLE merchants ALTER COLUMN ${name} TYPE varchar(${length})`);
    }
  }
}
