import type { DataSource } from 'typeorm';
import type { SealedChange, SealedRow, SealedSecrets, SealedTable } from '../ports/sealed-secrets';
import type { SerialWriter } from '../serial-writer';
import { sqlOf } from '../sql';

/**
 * Both stores (PostgreSQL takes it as it is): a prefix is compared with `substr`, whose length is a
 * parameter, which SQLite and PostgreSQL read alike.
 */
export class SqliteSealedSecrets implements SealedSecrets {
  constructor(
    private readonly reads: DataSource,
    private readonly writer: SerialWriter,
    private readonly sealed: SealedTable,
  ) {}

  async notBeginningWith(prefix: string, after: string, limit: number): Promise<SealedRow[]> {
    const { table, key, columns } = this.sealed;
    const rows = await sqlOf(this.reads.manager).all<Record<string, string | null>>(
      `SELECT ${key}, ${columns.join(', ')} FROM ${table} WHERE ${key} > ? AND ` +
        `(${columns.map((column) => `substr(${column}, 1, ?) <> ?`).join(' OR ')}) ORDER BY ${key} LIMIT ?`,
      [after, ...columns.flatMap(() => [prefix.length, prefix]), limit],
    );
    return rows.map((row) => ({
      key: String(row[key]),
      values: Object.fromEntries(columns.map((column) => [column, row[column]])),
    }));
  }

  replace(changes: readonly SealedChange[]): Promise<number> {
    const { table, key } = this.sealed;
    return this.writer.write(async (manager) => {
      let count = 0;
      for (const change of changes) {
        count += await sqlOf(manager).run(
          `UPDATE ${table} SET ${change.column} = ? WHERE ${key} = ? AND ${change.column} = ?`,
          [change.to, change.key, change.from],
        );
      }
      return count;
    });
  }

  async oneOutside(sealed: string, excluded: readonly string[]): Promise<string | undefined> {
    const { table, columns } = this.sealed;
    for (const column of columns) {
      const [row] = await sqlOf(this.reads.manager).all<{ sealed: string }>(
        `SELECT ${column} AS sealed FROM ${table} WHERE ` +
          [sealed, ...excluded]
            .map((_, i) => `substr(${column}, 1, ?) ${i === 0 ? '=' : '<>'} ?`)
            .join(' AND ') +
          ' LIMIT 1',
        [sealed, ...excluded].flatMap((prefix) => [prefix.length, prefix]),
      );
      if (row !== undefined) return row.sealed;
    }
    return undefined;
  }

  async countBeginningWith(prefix: string): Promise<number> {
    const { table, columns } = this.sealed;
    // count(*) is a bigint on PostgreSQL, which node-postgres reads as a string.
    const [counted] = await sqlOf(this.reads.manager).all<{ n: number | string }>(
      `SELECT count(*) AS n FROM ${table} WHERE ${columns.map((column) => `substr(${column}, 1, ?) = ?`).join(' OR ')}`,
      columns.flatMap(() => [prefix.length, prefix]),
    );
    return Number(counted?.n ?? 0);
  }
}
