import type { DataSource, EntityManager } from 'typeorm';
import { isStorageFailure } from '../storage-failure';
import type { Sql } from '../sql';
import type { StoreWriter, Work } from '../store-writer';
import { closeSqlite } from './close-sqlite';
import { sqliteSqlOf as sqlOf } from './sqlite-sql';
import { writeProbe } from './write-probe';

/**
 * Takes the write lock at once, so a second process on the same file waits (busy timeout)
 * instead of failing to upgrade a read lock halfway through the write.
 */
const BEGIN = 'BEGIN IMMEDIATE';

/** How a transaction is opened and ended. */
interface TransactionEnds {
  begin(sql: Sql): Promise<unknown>;
  commit(sql: Sql): Promise<unknown>;
}

/** A write alone. Prepared once, like the hot statements: they run for every transaction. */
const ALONE: TransactionEnds = {
  begin: (sql) => sql.run(BEGIN, []),
  commit: (sql) => sql.run('COMMIT', []),
};

/**
 * A group: its first write's savepoint opens with the transaction, and the last one's RELEASE
 * goes with the COMMIT, two trips fewer per group. A script stops at its first failure: a RELEASE
 * that fails because SQLite ended the transaction during the last write (see `member`) keeps the
 * COMMIT from running outside it.
 */
const GROUP: TransactionEnds = {
  begin: (sql) => sql.script(`${BEGIN}; SAVEPOINT member`),
  commit: (sql) => sql.script('RELEASE member; COMMIT'),
};

/** Enough to amortise a commit, few enough that one transaction never holds the file for long. */
const MAX_GROUP = 64;

interface Job {
  work: Work<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

type Outcome = () => void;

/**
 * SQLite's writes: one connection, one write at a time, in the order asked for. The writes that
 * queue while one commits share the next transaction (group commit: one COMMIT, one sync, for
 * all of them), each in a SAVEPOINT of its own, so a write that fails (a duplicate key) is rolled
 * back to its savepoint alone and its neighbours commit. Should the group's transaction itself
 * fail (its COMMIT, or SQLite ending it on its own), each write runs again alone.
 *
 * On a storage failure (a full disk, a read-only file) the connection is brought back to no open
 * transaction, reopened if that cannot be confirmed, and the write rejects with that failure.
 *
 * Transactions are opened and ended with plain SQL on the writer's query runner (TypeORM's own
 * BEGIN is not IMMEDIATE): a write sends SQL only, never an EntityManager.save, which would open
 * a transaction of its own.
 */
export class SqliteWriter implements StoreWriter {
  readonly probe = writeProbe;
  private readonly waiting: Job[] = [];
  private running: Promise<void> | undefined;

  constructor(private readonly dataSource: DataSource) {}

  write<T>(work: Work<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.waiting.push({ work, resolve: resolve as (value: unknown) => void, reject });
      this.running ??= this.run();
    });
  }

  async idle(): Promise<void> {
    await this.running;
  }

  private async run(): Promise<void> {
    for (;;) {
      const settle = await this.commit(this.waiting.splice(0, MAX_GROUP));
      const more = this.waiting.length > 0;
      // Idle again before the callers hear back, so a write they make next starts its own run.
      if (!more) this.running = undefined;
      settle();
      if (!more) return;
    }
  }

  /** Runs a group; returns how to tell each caller, once its write is committed or known lost. */
  private async commit(group: Job[]): Promise<Outcome> {
    if (group.length > 1) {
      try {
        const outcomes = await this.transaction(async (manager) => {
          const told: Outcome[] = [];
          for (const [i, job] of group.entries()) told.push(await this.member(manager, job, i === 0));
          return told;
        }, GROUP);
        return () => outcomes.forEach((tell) => tell());
      } catch (error) {
        // The storage failed: each write alone would fail the same way, and only cost time.
        if (isStorageFailure(error)) return () => group.forEach((job) => job.reject(error));
        // Else the group's transaction was lost as a whole (its COMMIT failed): each write alone.
      }
    }
    const outcomes: Outcome[] = [];
    for (const job of group) {
      outcomes.push(
        await this.transaction(job.work, ALONE).then(
          (value) => () => job.resolve(value),
          (error: unknown) => () => job.reject(error),
        ),
      );
    }
    return () => outcomes.forEach((tell) => tell());
  }

  /**
   * A write of a group, in its own savepoint (the first one's opened with the transaction). A
   * write that fails is undone to it and fails alone; a storage failure fails the group. The
   * previous write's savepoint is released in the same trip as this one's is opened: that RELEASE
   * fails if SQLite ended the transaction itself (an I/O error), and the group with it, before
   * anything of this write runs outside the transaction.
   */
  private async member(manager: EntityManager, job: Job, first: boolean): Promise<Outcome> {
    const sql = sqlOf(manager);
    if (!first) await sql.script('RELEASE member; SAVEPOINT member');
    try {
      const value = await job.work(manager);
      return () => job.resolve(value);
    } catch (error) {
      if (isStorageFailure(error)) throw error;
      await sql.run('ROLLBACK TO member', []);
      return () => job.reject(error);
    }
  }

  private async transaction<T>(work: Work<T>, ends: TransactionEnds): Promise<T> {
    if (!this.dataSource.isInitialized) await this.reopen();
    const { manager } = this.dataSource.createQueryRunner();
    const sql = sqlOf(manager);
    try {
      await ends.begin(sql);
      const value = await work(manager);
      await ends.commit(sql);
      return value;
    } catch (error) {
      // Also when the begin failed: a script may have failed after its BEGIN.
      await this.rollback(manager);
      throw error;
    }
  }

  /** Ends the failed transaction; if the connection's state cannot be confirmed, reopens it. */
  private async rollback(manager: EntityManager): Promise<void> {
    try {
      await manager.query('ROLLBACK');
      return;
    } catch (error) {
      // SQLite may have rolled back by itself (a full disk, an I/O error): then nothing is open.
      if (error instanceof Error && /no transaction is active/i.test(error.message)) return;
    }
    // Reopened now if the storage allows; else by the next write (see `transaction`).
    await this.reopen().catch(() => undefined);
  }

  private async reopen(): Promise<void> {
    if (this.dataSource.isInitialized) await closeSqlite(this.dataSource);
    await this.dataSource.initialize();
  }
}
