import type { DataSource, EntityManager } from 'typeorm';

/** The tail of each data source's queue of writes, shared by every writer of that data source. */
const tails = new WeakMap<DataSource, Promise<unknown>>();

/**
 * One writer at a time, each in its own transaction. SQLite drivers share one connection, so two
 * interleaved TypeORM transactions would silently run inside each other; every write of the
 * apps goes through here instead. Writers of the same data source share one queue, so that
 * repositories with a writer each still never interleave.
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
