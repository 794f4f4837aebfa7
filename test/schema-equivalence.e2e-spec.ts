import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource, type QueryRunner, type Table, type TableColumn } from 'typeorm';
import { API_MIGRATIONS, TERMINAL_MIGRATIONS, dataSourceOptions, closeDataSource } from '@tps/database';
import { TestStore } from '@tps/testing';

type Migrations = typeof API_MIGRATIONS;

/** A column as both stores must agree on it: the type as a family, not as each spells it. */
function columnShape(column: TableColumn): string {
  const family: Record<string, string> = {
    integer: 'int64', // SQLite's integer is 64-bit; PostgreSQL's columns are bigint
    bigint: 'int64',
    int8: 'int64',
    varchar: 'varchar',
    'character varying': 'varchar',
    text: 'text',
    boolean: 'boolean',
    datetime: 'time',
    'timestamp with time zone': 'time',
  };
  const type = family[column.type] ?? `UNMAPPED ${column.type}`;
  const length = type === 'varchar' ? `(${column.length})` : '';
  const nullable = column.isNullable ? ' null' : ' not null';
  return `${column.name} ${type}${length}${nullable}${column.isPrimary ? ' primary' : ''}${defaultOf(column)}`;
}

/** A default as a value: PostgreSQL adds casts, SQLite keeps the text it was given. */
function defaultOf(column: TableColumn): string {
  if (column.default === undefined || column.default === null) return '';
  const text = String(column.default)
    .replace(/::[a-z ]+$/i, '')
    .replace(/^now\(\)$/i, 'CURRENT_TIMESTAMP')
    .replace(/^\((.*)\)$/, '$1');
  // PostgreSQL quotes a number it casts ('0'::bigint); a boolean is 0/1 in SQLite.
  const value = text === 'false' ? '0' : text === 'true' ? '1' : text.replace(/^'(-?\d+)'$/, '$1');
  return ` default ${value}`;
}

/** A table's indexes, their columns in order: from SQLite's own list of them. */
function sqliteIndices(table: Table): string[] {
  return table.indices
    .map((index) => `${index.isUnique ? 'unique ' : ''}(${index.columnNames.join(', ')})`)
    .concat(table.uniques.map((unique) => `unique (${unique.columnNames.join(', ')})`));
}

/**
 * A table's indexes, their columns in order, from PostgreSQL's catalog (TypeORM lists an index's
 * columns by their place in the table, not in the index); the primary key's is its own.
 */
async function postgresIndices(runner: QueryRunner, table: string): Promise<string[]> {
  const rows = (await runner.query('SELECT indexname, indexdef FROM pg_indexes WHERE tablename = $1', [
    table,
  ])) as Array<{ indexname: string; indexdef: string }>;
  return rows
    .filter((row) => !row.indexname.startsWith('PK_'))
    .map((row) => {
      const columns = /\((.*)\)$/.exec(row.indexdef)?.[1] ?? row.indexdef;
      return `${row.indexdef.startsWith('CREATE UNIQUE') ? 'unique ' : ''}(${columns.replace(/"/g, '')})`;
    });
}

async function schemaOf(url: string, migrations: Migrations): Promise<Record<string, unknown>> {
  const dataSource = new DataSource(dataSourceOptions({ url, entities: [], migrations }));
  await dataSource.initialize();
  try {
    const runner = dataSource.createQueryRunner();
    const postgres = dataSource.options.type === 'postgres';
    const shapes: Array<[string, Record<string, unknown>]> = [];
    for (const table of await runner.getTables()) {
      const name = table.name.replace(/^public\./, '');
      // The apps' own tables: not the catalogs, not TypeORM's migration log, not SQLite's counters.
      if (name.includes('.') || name === 'migrations' || name.startsWith('sqlite_')) continue;
      const indices = postgres ? await postgresIndices(runner, name) : sqliteIndices(table);
      shapes.push([name, { columns: table.columns.map(columnShape).sort(), indices: indices.sort() }]);
    }
    await runner.release();
    return Object.fromEntries(shapes.sort(([a], [b]) => a.localeCompare(b)));
  } finally {
    await closeDataSource(dataSource);
  }
}

/**
 * The two stores hold the same schema (contract, "Two stores"): the same tables, columns, types
 * (as families: a whole number is 64-bit on both), nullability, defaults and indexes, after the
 * same migrations.
 */
describe('the schema is the same on SQLite and PostgreSQL', () => {
  let dir: string;
  let store: TestStore;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'tps-schema-'));
    store = new TestStore('postgres', dir);
  });

  afterAll(async () => {
    await store.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    ['api', API_MIGRATIONS],
    ['terminal', TERMINAL_MIGRATIONS],
  ])('%s', async (name, migrations) => {
    const sqlite = await schemaOf(`sqlite:${join(dir, `${name}.sqlite`)}`, migrations);
    const postgres = await schemaOf(await store.url(name), migrations);
    expect(Object.keys(sqlite).length).toBeGreaterThan(1);
    expect(postgres).toEqual(sqlite);
  });
});
