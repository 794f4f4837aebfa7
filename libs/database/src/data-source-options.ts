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
}

const URL_DRIVERS = {
  'postgres:': 'postgres',
  'postgresql:': 'postgres',
  'mysql:': 'mysql',
  'mariadb:': 'mariadb',
} as const;

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
  return { ...common, type, url: settings.url };
}
