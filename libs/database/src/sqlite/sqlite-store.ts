import { DataSource, type DataSourceOptions } from 'typeorm';
import type { StoreAdapter, WriteSource } from '../store-adapter';
import { entityStatements } from './entity-statements';
import { sqliteLeases } from './lease-statements';
import { sqlitePorts } from './sqlite-ports';
import { closeSqlite } from './close-sqlite';
import { sqliteSqlOf } from './sqlite-sql';
import { SqliteWriter } from './sqlite-writer';
import { truncateLog } from './truncate-log';

/** SQLite, the embedded default: a file (or memory) and one writer. */
export const sqliteStore: StoreAdapter = {
  accepts: (options: Pick<DataSourceOptions, 'type'>): boolean => options.type === 'sqlite',

  open: (options: DataSourceOptions): Promise<DataSource> => new DataSource(options).initialize(),

  /**
   * On a file, the writes have a connection of their own, and the reads' connection is left to
   * the reads. In WAL a read on the other connection sees only what is committed, never a
   * transaction under way: a read outside the writer cannot show a write whose COMMIT then fails
   * (a full disk), so nothing is ever told that was not stored. Reads still see their writes: a
   * write resolves only once its COMMIT returned, and a read that starts after that sees it. An
   * in-memory database is one connection: its writes go to the reads' data source.
   */
  writeSourceOf: async (reads: DataSource): Promise<WriteSource> => {
    const { options } = reads;
    if (options.type !== 'sqlite' || options.database === ':memory:') return { writes: reads, owned: false };
    // The reads' data source ran the migrations; this one opens on the migrated file.
    const writes = new DataSource({ ...options, migrationsRun: false });
    await writes.initialize();
    return { writes, owned: true };
  },

  writerOf: (dataSource: DataSource) => new SqliteWriter(dataSource),
  sqlOf: sqliteSqlOf,
  rowLocks: false,
  placeholderOf: () => '?',
  entities: entityStatements,
  leases: sqliteLeases,
  ports: sqlitePorts,
  shared: false,
  forgetReplaced: truncateLog,
  close: closeSqlite,
};
