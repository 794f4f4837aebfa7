import type { DataSource, DataSourceOptions, EntityManager } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import type { EntityStatements } from './entity-statements';
import type { LeaseAdapter } from './leased-queue/lease-adapters';
import type { StorePorts } from './ports/store-ports';
import type { Sql } from './sql';
import type { StoreWriter } from './store-writer';

/** Where an app's writes go: a data source, and whether it was opened for them alone. */
export interface WriteSource {
  writes: DataSource;
  /** Opened for the writer alone: closed with it (SerialWriter.onApplicationShutdown). */
  owned: boolean;
}

/**
 * What differs between the stores, each in its adapter's folder (sqlite/, postgres/). The rest
 * of the library asks the adapter (storeOf) and never tests the dialect itself.
 */
/** Where opening a data source says what an operator should know (the app's logger). */
export interface DatabaseNotes {
  log(message: string): void;
  warn(message: string): void;
}

export interface StoreAdapter {
  /** Whether the options are this store's. */
  accepts(options: Pick<DataSourceOptions, 'type'>): boolean;
  /** Opens and migrates a data source; says what an operator should know on `notes`. */
  open(options: DataSourceOptions, notes: DatabaseNotes): Promise<DataSource>;
  /** Where the writes of an app whose reads use `reads` go. */
  writeSourceOf(reads: DataSource): Promise<WriteSource>;
  /** How the writes of a data source run. */
  writerOf(dataSource: DataSource): StoreWriter;
  /** How statements run on the manager's connection (sqlOf). */
  sqlOf(manager: EntityManager): Sql;
  /** Whether a read inside a write may lock its rows (`FOR UPDATE`): needless with one writer. */
  rowLocks: boolean;
  /** A `?` for a column's value, cast where the driver cannot infer its type from the statement. */
  placeholderOf(dataSource: DataSource, column: ColumnMetadata): string;
  /** The statements EntityTable sends on this store. */
  entities: EntityStatements;
  /** How LeasedQueue leases rows on this store. */
  leases: LeaseAdapter;
  /** The adapters of the ports the apps read and write through (portsOf). */
  ports: StorePorts;
  /** Whether several processes may share the database (a server), or one alone serves it (a SQLite file). */
  shared: boolean;
  /**
   * Makes sure values the database replaced are no longer kept in its files (SQLite: the log's
   * old frames, until it is checkpointed and truncated); false when that could not be done now.
   */
  forgetReplaced(dataSource: DataSource): Promise<boolean>;
  /**
   * Closes an initialized data source, ending first what the store keeps on its connections
   * (SQLite: the kept statements, without which it cannot close). Every close goes through it
   * (closeDataSource), never TypeORM's `destroy` alone.
   */
  close(dataSource: DataSource): Promise<void>;
}
