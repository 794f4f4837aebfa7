import { DataSource, type DataSourceOptions } from 'typeorm';
import type { StoreAdapter } from '../store-adapter';
import { portableSql } from '../portable-sql';
import { openPostgres } from './open-postgres';
import { postgresLeases } from './postgres-leases';
import { entityStatements } from '../sqlite/entity-statements';
import { sqliteLeases } from '../sqlite/lease-statements';
import { sqlitePorts } from '../sqlite/sqlite-ports';
import { postgresPorts } from './postgres-ports';
import { postgresSqlOf } from './postgres-sql';
import { ServerWriter } from './server-writer';

/**
 * PostgreSQL: a pool, whose connections each hold a transaction of their own, so the writes go
 * to the reads' data source and run side by side.
 */
export const postgresStore: StoreAdapter = {
  accepts: (options: Pick<DataSourceOptions, 'type'>): boolean => options.type === 'postgres',
  open: openPostgres,
  writeSourceOf: async (reads: DataSource) => ({ writes: reads, owned: false }),
  writerOf: (dataSource: DataSource) => new ServerWriter(dataSource),
  sqlOf: postgresSqlOf,
  rowLocks: true,
  placeholderOf: (dataSource, column) => `CAST(? AS ${dataSource.driver.normalizeType(column)})`,
  // Plain SQL, typed where a list of values needs it by placeholderOf: SQLite's as it is.
  entities: entityStatements,
  leases: postgresLeases,
  ports: postgresPorts,
  shared: true,
  // Replaced values go with VACUUM, which the server runs by itself.
  forgetReplaced: () => Promise.resolve(true),
  close: (dataSource: DataSource) => dataSource.destroy(),
};

/** TypeORM's other server drivers (MySQL, MariaDB): PostgreSQL's writes, without its migration lock. */
export const otherServerStore: StoreAdapter = {
  accepts: (): boolean => true,
  open: (options: DataSourceOptions): Promise<DataSource> => new DataSource(options).initialize(),
  writeSourceOf: async (reads: DataSource) => ({ writes: reads, owned: false }),
  writerOf: (dataSource: DataSource) => new ServerWriter(dataSource),
  sqlOf: (manager) => portableSql(manager),
  rowLocks: false,
  placeholderOf: () => '?',
  entities: entityStatements,
  // One process to a database, as on SQLite: SQLite's leases as they are.
  leases: sqliteLeases,
  // Plain SQL with `?` placeholders, which SQLite's adapters write (PostgreSQL's use its functions).
  ports: sqlitePorts,
  shared: false,
  forgetReplaced: () => Promise.resolve(true),
  close: (dataSource: DataSource) => dataSource.destroy(),
};
