import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { Client, types } from 'pg';
import { Database } from 'sqlite3';
import { sqliteRows } from './sqlite-rows';

/** The two stores the apps run on (contract: "Two stores"). */
export type StoreKind = 'sqlite' | 'postgres';

/**
 * The stores the money-path suites run on: both, unless TEST_STORES narrows them (a comma list),
 * say to try one quickly by hand.
 */
export const STORES: readonly StoreKind[] = (process.env.TEST_STORES ?? 'sqlite,postgres')
  .split(',')
  .map((name) => name.trim())
  .filter((name): name is StoreKind => name === 'sqlite' || name === 'postgres');

/** The machine's PostgreSQL server; tests make a database of their own there and drop it. */
export const TEST_POSTGRES_URL =
  process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const TEST_DATABASE_PREFIX = 'tps_e2e_';

/** A test database older than this belongs to a run that was killed before it could drop it. */
const LEFT_OVER_AFTER_SECONDS = 3 * 3600;

/**
 * Drops the test databases that runs killed before their end left behind (older than three hours,
 * and with nobody connected: a database in use is never dropped).
 */
export async function dropLeftOverTestDatabases(): Promise<void> {
  await onServer(async (client) => {
    const { rows } = await client.query<{ datname: string }>(
      'SELECT datname FROM pg_database WHERE datname LIKE $1',
      [`${TEST_DATABASE_PREFIX}%`],
    );
    const now = Date.now() / 1000;
    for (const { datname } of rows) {
      const created = Number(/^tps_e2e_(\d+)_/.exec(datname)?.[1]);
      // Older names (no time in them) are left over by definition.
      if (Number.isFinite(created) && now - created < LEFT_OVER_AFTER_SECONDS) continue;
      await client.query(`DROP DATABASE IF EXISTS ${datname}`).catch(() => undefined);
    }
  });
}

async function onServer<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: TEST_POSTGRES_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** pg's type id of int8 (a COUNT, a bigint column). */
const INT8_OID = 20;

/** int8 as a JavaScript number, every other type as pg parses it. */
function numbersAsNumbers(oid: number, format?: 'text' | 'binary'): (value: string) => unknown {
  if (oid === INT8_OID) return Number;
  return types.getTypeParser(oid, format) as (value: string) => unknown;
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/**
 * An app's databases for one test: SQLite files in the test's folder, or databases of their own
 * on the PostgreSQL server, made on first use and dropped by `drop`.
 */
export class TestStore {
  private readonly databases = new Map<string, string>();
  /** Names start with the creation time, so that a run killed before it dropped them is known later. */
  private readonly prefix = `${TEST_DATABASE_PREFIX}${Math.floor(Date.now() / 1000)}_${randomBytes(4).toString('hex')}`;

  constructor(
    readonly kind: StoreKind,
    private readonly dir: string,
  ) {}

  /** The database URL for `name` (`api`, `terminal`, …), made if it does not exist yet. */
  async url(name: string): Promise<string> {
    if (this.kind === 'sqlite') return `sqlite:${this.sqliteFile(name)}`;
    let database = this.databases.get(name);
    if (database === undefined) {
      database = `${this.prefix}_${name.replace(/[^a-z0-9]/gi, '_').toLowerCase()}`;
      const created = database;
      await onServer((client) => client.query(`CREATE DATABASE ${created}`));
      this.databases.set(name, database);
    }
    return withDatabase(TEST_POSTGRES_URL, database);
  }

  /** The SQLite file of `name` (SQLite only: what a fault test makes read-only or fills). */
  sqliteFile(name: string): string {
    if (this.kind !== 'sqlite') throw new Error(`${name} is on ${this.kind}, not in a SQLite file`);
    return join(this.dir, `${name}.sqlite`);
  }

  /** Rows read straight from the store of `name`, to check what an app really stored (`?` placeholders). */
  async rows<T = Record<string, unknown>>(name: string, sql: string, params: unknown[] = []): Promise<T[]> {
    if (this.kind === 'sqlite') return sqliteRows<T>(this.sqliteFile(name), sql, params);
    // A COUNT or a bigint column reads back as a number, as the apps read them (parseInt8).
    const client = new Client({
      connectionString: await this.url(name),
      types: { getTypeParser: numbersAsNumbers as typeof types.getTypeParser },
    });
    await client.connect();
    try {
      let n = 0;
      const numbered = sql.replace(/\?/g, () => `$${++n}`);
      return (await client.query(numbered, params)).rows as T[];
    } finally {
      await client.end();
    }
  }

  /** Changes the store of `name` behind its app's back (`?` placeholders), as an older copy of it would be. */
  async execute(name: string, sql: string, params: unknown[] = []): Promise<void> {
    if (this.kind === 'sqlite') {
      const db = new Database(this.sqliteFile(name));
      await new Promise<void>((resolve, reject) =>
        db.run(sql, params, (error) => (error ? reject(error) : resolve())),
      ).finally(() => db.close());
      return;
    }
    await this.rows(name, sql, params);
  }

  /** Drops the PostgreSQL databases made for the test (their apps must be stopped). */
  async drop(): Promise<void> {
    const names = [...this.databases.values()];
    this.databases.clear();
    if (names.length === 0) return;
    await onServer(async (client) => {
      for (const database of names) await client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    });
  }
}
