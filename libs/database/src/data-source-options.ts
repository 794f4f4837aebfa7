import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DataSource, DataSourceOptions } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import type { DatabaseWaits } from './database-wait-settings';
import { clientWaits } from './postgres/client-waits';
import { sqliteDriver } from './sqlite/sqlite-driver';
import { recordStatementsIfAsked } from './statement-recorder';

type ClassList = NonNullable<DataSourceOptions['migrations']>;

export interface DatabaseSettings {
  /**
   * `sqlite:<path>` (or a bare path) for the embedded default; any other URL is handed to TypeORM
   * with the driver named by its scheme (`postgres://…`, `mysql://…`).
   */
  url: string;
  entities: NonNullable<DataSourceOptions['entities']>;
  migrations: ClassList;
  /** PostgreSQL: connections in the pool (the API's reads and writes share it). */
  poolSize?: number;
  /** PostgreSQL: how the server names the connections (pg_stat_activity), e.g. `tps-api`. */
  applicationName?: string;
  /**
   * PostgreSQL: a URL of the same database that reaches the server itself, not through a pooler,
   * for what needs one server session of its own (migrations under their advisory lock, LISTEN).
   * Given, `url` is taken to be a pooler's (PgBouncer in session or transaction mode): the pooled
   * path then keeps no state on the server session (no named prepared statements).
   */
  directUrl?: string;
  /** PostgreSQL: how long each wait may last (DatabaseWaitSettings); their defaults when unset. */
  waits?: DatabaseWaits;
}

/** The options TypeORM is given, with what this library adds to them (kept on `dataSource.options`). */
type WithDirectUrl = DataSourceOptions & { readonly directUrl?: string; readonly waits?: DatabaseWaits };

/** The direct URL of a data source's options (DatabaseSettings.directUrl), if one was given. */
export function directUrlOf(options: DataSourceOptions): string | undefined {
  return (options as WithDirectUrl).directUrl;
}

/** The waits of a data source's options (DatabaseSettings.waits), on PostgreSQL. */
export function waitsOf(options: DataSourceOptions): DatabaseWaits | undefined {
  return (options as WithDirectUrl).waits;
}

const URL_DRIVERS = {
  'postgres:': 'postgres',
  'postgresql:': 'postgres',
  'mysql:': 'mysql',
  'mariadb:': 'mariadb',
} as const;

/** DatabaseWaitSettings' defaults. */
const DEFAULT_WAITS: DatabaseWaits = {
  acquireTimeoutMs: 3000,
  statementTimeoutMs: 10_000,
  lockTimeoutMs: 5000,
};
export function sqlitePath(url: string): string | undefined {
  if (url.startsWith('sqlite:')) return url.slice('sqlite:'.length);
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? undefined : url;
}

/** Whether the URL names a database server, which other processes may share (not a SQLite file). */
export function isServerUrl(url: string): boolean {
  return sqlitePath(url) === undefined;
}

/** TypeORM options from one URL; migrations always run, `synchronize` never does. */
export function dataSourceOptions(settings: DatabaseSettings): DataSourceOptions {
  // Test-only, off unless SQL_STATEMENTS_FILE is set: the SQL snapshots' recorder (docs/queries/README.md).
  recordStatementsIfAsked();
  const common = {
    entities: settings.entities,
    migrations: settings.migrations,
    migrationsRun: true,
    synchronize: false,
    logging: false,
  } as const;
  const path = sqlitePath(settings.url);
  if (path !== undefined) {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    return {
      ...common,
      type: 'sqlite',
      driver: sqliteDriver,
      database: path,
      enableWAL: true,
      busyTimeout: 5000,
    };
  }
  const scheme = new URL(settings.url).protocol as keyof typeof URL_DRIVERS;
  const type = URL_DRIVERS[scheme];
  if (type === undefined) throw new Error(`unsupported database URL scheme ${scheme}`);
  if (type !== 'postgres') return { ...common, type, url: settings.url };
  const waits = settings.waits ?? DEFAULT_WAITS;
  const options: WithDirectUrl = {
    ...common,
    directUrl: settings.directUrl,
    waits,
    type,
    url: settings.url,
    // Every integer column is bigint there (amounts reach 9,999,999,999); all stay below 2^53.
    parseInt8: true,
    applicationName: settings.applicationName,
    poolSize: settings.poolSize,
    // node-postgres' own names: TypeORM hands `extra` to its pool as they are.
    extra: clientWaits(waits, settings.directUrl !== undefined),
  };
  return options;
}

/** A PostgreSQL pool's connections now: open, idle, and the callers waiting for one. */
export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

/** The pool of a PostgreSQL data source (node-postgres' counts), undefined on another driver. */
export function poolStatsOf(dataSource: DataSource): PoolStats | undefined {
  if (dataSource.options.type !== 'postgres' || !dataSource.isInitialized) return undefined;
  const pool = (dataSource.driver as PostgresDriver).master as
    { totalCount: number; idleCount: number; waitingCount: number } | undefined;
  if (pool === undefined) return undefined;
  return { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount };
}
