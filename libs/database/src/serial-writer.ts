import type { DataSource, EntityManager } from 'typeorm';

/**
 * One writer at a time, each in its own transaction. SQLite drivers share one connection, so two
 * interleaved TypeORM transactions would silently run inside each other; every write of the
 * apps goes through here instead.
 */
export class SerialWriter {
  private tail: Promise<unknown> = Promise.resolve();

  constructor(private readonly dataSource: DataSource) {}

  write<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    const run = this.tail.then(() => this.dataSource.transaction((manager) => work(manager)));
    this.tail = run.catch(() => undefined);
    return run;
  }
}
