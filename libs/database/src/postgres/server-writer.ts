import type { DataSource, DataSourceOptions } from 'typeorm';
import { directUrlOf, waitsOf } from '../data-source-options';
import { isWriteConflict } from '../storage-failure';
import type { StoreWriter, Work } from '../store-writer';
import { writeProbe } from '../sqlite/write-probe';

/** How many times a write that lost to a concurrent one (PostgreSQL: 40001, 40P01) runs again. */
const CONFLICT_RETRIES = 5;

/**
 * What opens a write's transaction on PostgreSQL, in one round trip. Through a pooler the
 * statement and lock timeouts are set in it (`SET LOCAL`): PgBouncer refuses them as startup
 * parameters, and a session `SET` would stay on a server session other clients then get. The
 * role's defaults (openPostgres) bound a statement sent alone; these hold this process's values
 * for its transactions even on a server session the pooler opened before those defaults changed.
 * On a direct connection they are the session's own, set at connect.
 */
function beginOf(options: DataSourceOptions): string {
  const directUrl = directUrlOf(options);
  const waits = waitsOf(options);
  if (directUrl === undefined || waits === undefined) return 'BEGIN';
  return (
    `BEGIN; SET LOCAL statement_timeout = ${Math.floor(waits.statementTimeoutMs)}; ` +
    `SET LOCAL lock_timeout = ${Math.floor(waits.lockTimeoutMs)}`
  );
}

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
  /** Sent as SQLite's writer sends it. */
  readonly probe = writeProbe;
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
