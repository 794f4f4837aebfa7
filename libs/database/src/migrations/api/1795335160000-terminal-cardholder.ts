import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';

/** The `cardholder` setting of a sandbox terminal (contract §15): `auto` unless a presenter chose `manual`. */
export class TerminalCardholder1795335160000 implements MigrationInterface {
  name = 'TerminalCardholder1795335160000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn(
      'terminals',
      new TableColumn({ name: 'cardholder', type: 'varchar', length: '8', default: "'auto'" }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('terminals', 'cardholder');
  }
}
