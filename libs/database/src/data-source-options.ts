import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import sqlite3 from 'sqlite3';
import type { DataSourceOptions } from 'typeorm';

type ClassList = NonNullable<DataSourceOptions['migrations']>;

export interface DatabaseSettings {
  /**
   * `sqlite:<path>` (or a bare path) for the embedded default; any other URL is handed to TypeORM
   * with the driver named by its scheme (`postgres://…`, `mysql://…`).
   */
  url: string;
  entities: NonNullable<DataSourceOptions['entities']>;
  migrations: ClassList;
}

const URL_DRIVERS = {
  'postgres:': 'postgres',
  'postgresql:': 'postgres',
  'mysql:': 'mysql',
  'mariadb:': 'mariadb',
} as const;

/**
 * The sqlite3 module as TypeORM's driver, minus the `verbose()` TypeORM always calls: verbose mode
 * wraps every statement to capture a long stack trace, a fifth of the API's time under load
 * (BENCHMARKS.md). Errors still carry the statement and its message.
 */
const quietSqlite3: typeof sqlite3 = Object.assign(Object.create(sqlite3) as typeof sqlite3, {
  verbose: () => sqlite3,
});

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
      driver: quietSqlite3,
      database: path,
      enableWAL: true,
      busyTimeout: 5000,
    };
  }
  const scheme = new URL(settings.url).protocol as keyof typeof URL_DRIVERS;
  const type = URL_DRIVERS[scheme];
  if (type === undefined) throw new Error(`unsupported database URL scheme ${scheme}`);
  return { ...common, type, url: settings.url };
}
