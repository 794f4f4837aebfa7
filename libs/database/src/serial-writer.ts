import { StorageUnavailableError } from '@tps/domain';
import type { DataSource } from 'typeorm';
import { closeDataSource } from './close-data-source';
import { attributedWork } from './statement-recorder';
import { isStorageFailure } from './storage-failure';
import type { StoreWriter, Work } from './store-writer';
import { storeOf } from './stores';
import { WriteHealth, type StorageHealth } from './write-health';

export type { StorageHealth } from './write-health';
export type { Work } from './store-writer';

/** A data source's writer and health, shared by every SerialWriter of it. */
interface Writes {
  store: StoreWriter;
  health: WriteHealth;
}

const writesBySource = new WeakMap<DataSource, Writes>();

function writesOf(dataSource: DataSource): Writes {
  let writes = writesBySource.get(dataSource);
  if (writes === undefined) {
    writes = { store: storeOf(dataSource.options).writerOf(dataSource), health: new WriteHealth() };
    writesBySource.set(dataSource, writes);
  }
  return writes;
}

/**
 * Every write of the apps goes through here, to its store's writer (sqlite/, postgres/): writers
 * of one data source share it, so repositories that each hold a writer still never overlap where
 * the store allows one writer. A write resolves once its COMMIT returned; it rejects with its own
 * error (nothing of it stored), or with 503 INT-002 (StorageUnavailableError) when the storage
 * failed, and the health is then `down` until a write reaches the storage again.
 */
export class SerialWriter {
  private readonly writes: Writes;

  /** `owned`: a data source opened for this writer alone (openSerialWriter), closed with the app. */
  constructor(
    dataSource: DataSource,
    private readonly owned?: DataSource,
  ) {
    this.writes = writesOf(dataSource);
  }

  /** Resolves once the write is committed; rejects if it threw (rolled back alone) or the commit failed. */
  write<T>(work: Work<T>): Promise<T> {
    return this.run(work, false);
  }

  /**
   * A write that sends one statement (Sql.together counts as one): a database server runs it as
   * a transaction of its own, two trips fewer than with BEGIN and COMMIT (contract, "Two stores").
   */
  writeOne<T>(work: Work<T>): Promise<T> {
    return this.run(work, true);
  }

  private async run<T>(work: Work<T>, oneStatement: boolean): Promise<T> {
    const { store, health } = this.writes;
    try {
      const value = await store.write(attributedWork(work), oneStatement);
      health.reached();
      return value;
    } catch (error) {
      if (!isStorageFailure(error)) throw error;
      health.failed(error);
      throw error instanceof StorageUnavailableError ? error : new StorageUnavailableError(error);
    }
  }

  /** Whether writing works: the last write's result, checked again by a probe write while down. */
  async health(): Promise<StorageHealth> {
    const { store, health } = this.writes;
    if (health.probeDue()) await this.write(store.probe).catch(() => undefined);
    return health.current;
  }

  /** NestJS's shutdown hook: the writer's own connection closes once its writes are done. */
  async onApplicationShutdown(): Promise<void> {
    if (this.owned === undefined) return;
    await this.writes.store.idle();
    await closeDataSource(this.owned);
  }
}
