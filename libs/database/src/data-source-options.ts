import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DataSourceOptions } from 'typeorm';
import { preparedSqlite3 } from './prepared-sqlite';

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
}

/** The options TypeORM is given, with what this library adds to them (kept on `dataSource.options`). */
type WithDirectUrl = DataSourceOptions & { readonly directUrl?: string };

/** The direct URL of a data source's options (DatabaseSettings.directUrl), if one was given. */
export function directUrlOf(options: DataSourceOptions): string | undefined {
  return (options as WithDirectUrl).directUrl;
}

const URL_DRIVERS = {
  'postgres:': 'postgres',
  'postgresql:': 'postgres',
  'mysql:': 'mysql',
  'mariadb:': 'mariadb',
} as const;

/** A server that does not accept a connection within this is down for this write (503 INT-002). */
const POSTGRES_CONNECT_TIMEOUT_MS = 3000;
/** A statement with no answer within this is a storage failure; no statement of ours runs that long. */
const POSTGRES_QUERY_TIMEOUT_MS = 10_000;

export function sqlitePath(url: string): string | undefined {
  if (url.startsWith('sqlite:')) return url.slice('sqlite:'.length);
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? undefined : url;
}

/** TypeORM options from one URL; migrations always run, `synchronize` never does. */
export function dataSourceOptions(settings: DatabaseSettings): DataSourceOptions {
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
      driver: preparedSqlite3,
      database: path,
      enableWAL: true,
      busyTimeout: 5000,
    };
  }
  const scheme = new URL(settings.url).protocol as keyof typeof URL_DRIVERS;
  const type = URL_DRIVERS[scheme];
  if (type === undefined) throw new Error(`unsupported database URL scheme ${scheme}`);
  if (type !== 'postgres') return { ...common, type, url: settings.url };
  const options: WithDirectUrl = {
    ...common,
    directUrl: settings.directUrl,
    type,
    url: settings.url,
    // Every integer column is bigint there (amounts reach 9,999,999,999); all stay below 2^53.
    parseInt8: true,
    applicationName: settings.applicationName,
    poolSize: settings.poolSize,
    connectTimeoutMS: POSTGRES_CONNECT_TIMEOUT_MS,
    extra: {
      // A server that stops answering (stopped, cut off) fails the statement instead of hanging it.
      query_timeout: POSTGRES_QUERY_TIMEOUT_MS,
      keepAlive: true,
    },
  };
  return options;
}
