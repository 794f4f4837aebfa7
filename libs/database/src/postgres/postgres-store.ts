import { DataSource, type DataSourceOptions } from 'typeorm';
import type { StoreAdapter } from '../store-adapter';
import { portableSql } from '../portable-sql';
import { openPostgres } from './open-postgres';
import { postgresSqlOf } from './postgres-sql';
import { ServerWriter } from './server-writer';

/**
 * PostgreSQL: a pool, whose connections each hold a transaction of their own, so the writes go
 * to the reads' data source and run side by side.
 */
export const postgresStore: StoreAdapter = {
  accepts: (options: DataSourceOptions): boolean => options.type === 'postgres',
  open: openPostgres,
  writeSourceOf: async (reads: DataSource) => ({ writes: reads, owned: false }),
  writerOf: (dataSource: DataSource) => new ServerWriter(dataSource),
  sqlOf: postgresSqlOf,
  rowLocks: true,
  placeholderOf: (dataSource, column) => `CAST(? AS ${dataSource.driver.normalizeType(column)})`,
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
};
