import type { DataSource } from 'typeorm';
import { beginOf } from '../data-source-options';
import { isWriteConflict } from '../storage-failure';
import type { StoreWriter, Work } from '../store-writer';

/** How many times a write that lost to a concurrent one (PostgreSQL: 40001, 40P01) runs again. */
const CONFLICT_RETRIES = 5;

/**
 * A database server's writes (PostgreSQL, and TypeORM's other server drivers): each write a
 * short transaction of its own on a connection of the pool, as many at once as the pool gives.
 * Where two writes meet, their own SQL locks the rows (FOR UPDATE, unique keys); a write that
 * loses (a serialization failure, a deadlock) runs again (contract, "Two stores").
 *
 * A write of one statement is sent as it is: the server makes it a transaction of its own, two
 * trips fewer than with BEGIN and COMMIT, and it is committed once it returned. The others are
 * opened with beginOf, which through a pooler carries the transaction's timeouts in the same
 * trip, and ended with plain SQL on the write's query runner: a write sends SQL only, never an
 * EntityManager.save, which would open a transaction of its own.
 */
export class ServerWriter implements StoreWriter {
  private readonly running = new Set<Promise<unknown>>();

  constructor(private readonly dataSource: DataSource) {}

  write<T>(work: Work<T>, oneStatement: boolean): Promise<T> {
    const written = this.retried(() =>
      oneStatement ? work(this.dataSource.manager) : this.transaction(work),
    );
    const tracked = written.catch(() => undefined).finally(() => this.running.delete(tracked));
    this.running.add(tracked);
    return written;
  }

  async idle(): Promise<void> {
    await Promise.all([...this.running]);
  }

  private async retried<T>(write: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await write();
      } catch (error) {
        if (!isWriteConflict(error) || attempt > CONFLICT_RETRIES) throw error;
      }
    }
  }

  private async transaction<T>(work: Work<T>): Promise<T> {
    const runner = this.dataSource.createQueryRunner();
    let begun = false;
    try {
      await runner.query(beginOf(this.dataSource.options));
      begun = true;
      const value = await work(runner.manager);
      await runner.query('COMMIT');
      return value;
    } catch (error) {
      // A connection lost mid-transaction has been rolled back by the server.
      if (begun) await runner.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      await runner.release();
    }
  }
}
