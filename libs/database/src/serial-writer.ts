import type { DataSource, EntityManager } from 'typeorm';

/** The end of each data source's write queue, shared by every writer on it. */
const tails = new WeakMap<DataSource, Promise<unknown>>();

/**
 * One writer at a time, each in its own transaction. SQLite drivers share one connection, so two
 * interleaved TypeORM transactions would silently run inside each other; every write of the
 * apps goes through here instead. Writers of one data source share one queue, so repositories
 * that each hold a writer still never overlap.
 */
export class SerialWriter {
  constructor(private readonly dataSource: DataSource) {}

  write<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    const tail = tails.get(this.dataSource) ?? Promise.resolve();
    const run = tail.then(() => this.dataSource.transaction((manager) => work(manager)));
    tails.set(
      this.dataSource,
      run.catch(() => undefined),
    );
    return run;
  }
}
