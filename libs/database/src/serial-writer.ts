import { StorageUnavailableError } from '@tps/domain';
import type { DataSource, EntityManager, QueryRunner } from 'typeorm';
import { BatchGuard } from './batch-guard';
import { beginOf } from './data-source-options';
import { overlaps, runKeyed } from './keyed-batch';
import { sqlOf } from './sql';
import { isStorageFailure, isWriteConflict } from './storage-failure';

type Work<T> = (manager: EntityManager) => Promise<T>;

interface Job {
  work: Work<unknown>;
  /** What the write reads and changes; none: anything (see SerialWriter.writeKeyed). */
  keys?: readonly string[];
  /** It sends one statement to a server (see SerialWriter.writeOne). */
  single?: boolean;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * Takes the write lock at once, so a second process on the same file waits (busy timeout)
 * instead of failing to upgrade a read lock halfway through the write.
 */
const BEGIN = 'BEGIN IMMEDIATE';

/** Enough to amortise a commit, few enough that one batch never holds the database for long. */
const MAX_BATCH = 64;

/**
 * While down, how long after the last failed write a health check writes a probe. A small probe
 * can fit where real writes do not (SQLite reuses its log's space), so it must not turn the health
 * `up` between two failing writes.
 */
const PROBE_AFTER_MS = 1000;

/** How many times a write that lost to a concurrent one (PostgreSQL: 40001, 40P01) runs again. */
const CONFLICT_RETRIES = 5;

/** Whether the last write reached the storage; `down` until one does again. */
export interface StorageHealth {
  state: 'up' | 'down';
  /** When the current state began (ms since the epoch). */
  since: number;
  /** The storage failure that made it `down`. */
  reason?: string;
}

/**
 * The flags TypeORM's query runners keep about their connection. The writer opens and ends
 * transactions itself (SQLite's BEGIN IMMEDIATE, and a ROLLBACK it checks; a pooler's BEGIN with
 * its timeouts), so it keeps them true to what the connection really is: TypeORM leaves them set
 * after a failed COMMIT, and every later "transaction" then runs as a savepoint inside one that
 * never commits.
 */
interface SqliteRunnerFlags {
  isTransactionActive: boolean;
  transactionDepth: number;
}

/**
 * One data source's writes, one at a time, in the order they were asked for. Writes that arrive
 * while one commits wait and then share one transaction (group commit); if any of them fails,
 * the batch is rolled back and each write runs again in its own transaction, so a write that
 * fails fails alone. A write may therefore run twice: it must touch nothing but the database.
 * Under load this turns a commit per write into one per batch; idle, a write is its own.
 *
 * Inside a batch the writes keep their order, except that writes given keys run at the same time
 * as the others that share none of their keys (on SQLite; other drivers run them in order): each
 * statement waits for the main thread before the next one of its write can start, so a batch of
 * writes one after another spent most of its time waiting. A BatchGuard keeps such a batch
 * all-or-nothing.
 *
 * A write is resolved only once its COMMIT returned. When the storage fails (a full disk, a
 * read-only file) the connection is brought back to no open transaction, reopened if that cannot
 * be confirmed, the health turns `down`, and the write is rejected with 503 INT-002.
 */
class WriteQueue {
  private readonly waiting: Job[] = [];
  private running = false;
  /** The run under way, settled once the queue is empty. */
  private current: Promise<void> = Promise.resolve();
  private readonly guard = new BatchGuard();

  constructor(
    private readonly dataSource: DataSource,
    /** Shared by every lane of the data source: the storage is up or down for all of them. */
    private readonly state: { health: StorageHealth; lastFailureAt: number },
  ) {}

  enqueue(job: Job): void {
    this.waiting.push(job);
    if (!this.running) this.current = this.run();
  }

  /** Settles once every write asked for so far is committed or known lost. */
  idle(): Promise<void> {
    return this.current;
  }

  private async run(): Promise<void> {
    this.running = true;
    for (;;) {
      const settle = await this.commit(this.waiting.splice(0, MAX_BATCH));
      // Idle again before the callers hear back, so a write they make next starts its own run.
      if (this.waiting.length === 0) this.running = false;
      settle();
      if (!this.running) return;
    }
  }

  /** Runs a batch; returns how to tell each caller, once its write is committed or known lost. */
  private async commit(batch: Job[]): Promise<() => void> {
    if (batch.length > 1 && this.dataSource.options.type !== 'sqlite' && batch.every((job) => job.single)) {
      return this.eachAlone(batch);
    }
    if (batch.length > 1) {
      const sqlite = this.dataSource.options.type === 'sqlite';
      const keyed = batch.map((job) => ({ keys: sqlite ? job.keys : undefined, work: job.work }));
      const values: unknown[] = [];
      try {
        await this.transaction(async (manager) => {
          const settled = await runKeyed(
            keyed.map(({ keys, work }) => ({ keys, work: () => work(manager) })),
          );
          const failures = settled.flatMap((result): unknown[] =>
            result.status === 'rejected' ? [result.reason] : [],
          );
          // A write refused by the guard is the consequence; the storage failure, if any, the cause.
          if (failures.length > 0) throw failures.find(isStorageFailure) ?? failures[0];
          for (const result of settled) if (result.status === 'fulfilled') values.push(result.value);
        }, overlaps(keyed));
        return () => batch.forEach((job, i) => job.resolve(values[i]));
      } catch (error) {
        // The storage failed: each write alone would fail the same way, and only cost time.
        if (isStorageFailure(error)) return () => batch.forEach((job) => job.reject(this.unavailable(error)));
        // One write failed, or the commit did: nothing of the batch is stored. Each write runs
        // again alone, so only the failing one fails (a savepoint per write would cost two more
        // statements for each write, for a case that almost never happens).
      }
    }
    const outcomes: Array<() => void> = [];
    // A statement alone is a transaction of its own: no BEGIN and COMMIT around it.
    const single =
      batch.length === 1 && batch[0].single === true && this.dataSource.options.type !== 'sqlite';
    for (const job of batch) {
      outcomes.push(
        await this.transactionRetried(job.work, single).then(
          (value) => () => job.resolve(value),
          (error: unknown) => () => job.reject(isStorageFailure(error) ? this.unavailable(error) : error),
        ),
      );
    }
    return () => outcomes.forEach((tell) => tell());
  }

  /**
   * Writes of one statement each, to a server: each its own transaction, on a connection of the
   * pool, at the same time as those sharing none of its keys (in order with those that do). No
   * BEGIN and COMMIT around them, no write waiting for another's statement: the server's own group
   * commit makes one flush of the commits that come together.
   */
  private async eachAlone(batch: Job[]): Promise<() => void> {
    const settled = await runKeyed(
      batch.map((job) => ({ keys: job.keys, work: () => this.transactionRetried(job.work, true) })),
      true,
    );
    return () =>
      batch.forEach((job, i) => {
        const result = settled[i];
        if (result.status === 'fulfilled') job.resolve(result.value);
        else job.reject(isStorageFailure(result.reason) ? this.unavailable(result.reason) : result.reason);
      });
  }

  private unavailable(error: unknown): StorageUnavailableError {
    return error instanceof StorageUnavailableError ? error : new StorageUnavailableError(error);
  }

  /** A write alone, run again while it loses to concurrent writes of other processes. */
  private async transactionRetried<T>(work: Work<T>, single: boolean): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await this.transaction(work, false, single);
      } catch (error) {
        if (!isWriteConflict(error) || attempt > CONFLICT_RETRIES) throw error;
      }
    }
  }

  /**
   * `guarded`: its writes run at the same time (SQLite only), under the BatchGuard. `single`: one
   * statement to a server, run as it is (its own transaction there).
   */
  private async transaction<T>(work: Work<T>, guarded = false, single = false): Promise<T> {
    try {
      if (!this.dataSource.isInitialized) await this.reopen();
      let value: T;
      if (this.dataSource.options.type === 'sqlite') value = await this.sqliteTransaction(work, guarded);
      else if (single) value = await work(this.dataSource.manager);
      else value = await this.serverTransaction(work);
      if (this.state.health.state === 'down') this.state.health = { state: 'up', since: Date.now() };
      return value;
    } catch (error) {
      if (isStorageFailure(error)) {
        const reason = error instanceof Error ? error.message : String(error);
        this.state.lastFailureAt = Date.now();
        if (this.state.health.state === 'up')
          this.state.health = { state: 'down', since: Date.now(), reason };
      }
      throw error;
    }
  }

  /**
   * The write in a transaction of its own on a server. Its BEGIN carries the transaction's
   * timeouts through a pooler (beginOf), in the same round trip; on a direct connection it is
   * TypeORM's own.
   */
  private async serverTransaction<T>(work: Work<T>): Promise<T> {
    const begin = beginOf(this.dataSource.options);
    if (begin === 'BEGIN') return this.dataSource.transaction(work);
    const runner = this.dataSource.createQueryRunner();
    const flags = runner as unknown as SqliteRunnerFlags;
    let begun = false;
    try {
      await runner.query(begin);
      begun = true;
      flags.isTransactionActive = true;
      flags.transactionDepth = 1;
      const value = await work(runner.manager);
      await runner.query('COMMIT');
      return value;
    } catch (error) {
      // A connection lost mid-transaction has been rolled back by the server.
      if (begun) await runner.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      flags.isTransactionActive = false;
      flags.transactionDepth = 0;
      await runner.release();
    }
  }

  /** The write in a transaction of its own on SQLite (BEGIN IMMEDIATE, see BEGIN). */
  private async sqliteTransaction<T>(work: Work<T>, guarded: boolean): Promise<T> {
    const runner = this.dataSource.createQueryRunner();
    const flags = runner as unknown as SqliteRunnerFlags;
    // Prepared once, like the hot statements: they run for every batch.
    const sql = sqlOf(runner.manager);
    // Guarded, a failure may come before or after BEGIN: the rollback then tells which.
    let begun = guarded;
    try {
      if (guarded) await this.guard.begin(runner.manager, BEGIN);
      else await sql.run(BEGIN, []);
      begun = true;
      flags.isTransactionActive = true;
      flags.transactionDepth = 1;
      const value = await work(runner.manager);
      await sql.run('COMMIT', []);
      return value;
    } catch (error) {
      if (begun) await this.rollback(runner);
      if (guarded) await this.guard.rest(runner.manager).catch(() => this.reopen().catch(() => undefined));
      throw error;
    } finally {
      flags.isTransactionActive = false;
      flags.transactionDepth = 0;
    }
  }

  /** Ends the failed transaction; if the connection's state cannot be confirmed, reopens it. */
  private async rollback(runner: QueryRunner): Promise<void> {
    try {
      await runner.query('ROLLBACK');
      return;
    } catch (error) {
      // SQLite may have rolled back by itself (a full disk, an I/O error): then nothing is open.
      if (error instanceof Error && /no transaction is active/i.test(error.message)) return;
    }
    // Reopened now if the storage allows; else by the next write (see `transaction`).
    await this.reopen().catch(() => undefined);
  }

  private async reopen(): Promise<void> {
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
    await this.dataSource.initialize();
  }

  /** A write that changes nothing but must reach the storage: tells whether writing works now. */
  async probe(): Promise<StorageHealth> {
    if (this.state.health.state === 'up' || Date.now() - this.state.lastFailureAt < PROBE_AFTER_MS) {
      return this.state.health;
    }
    await new Promise<unknown>((resolve) => {
      this.enqueue({
        // Rewriting a row of TypeORM's own table needs no table of ours, and really writes a page.
        work: (manager) =>
          manager.query('UPDATE migrations SET name = name WHERE id = (SELECT MAX(id) FROM migrations)'),
        resolve,
        reject: resolve,
      });
    });
    return this.state.health;
  }
}

/**
 * A data source's write queues. SQLite has one writer, so one lane. PostgreSQL locks rows, so
 * writes may commit side by side: half its pool writes (each lane a connection at a time, with
 * group commit), the other half is left to reads. Writes that share their first key share a
 * lane and keep their order; the rest rely on the row locks and conflict retries (contract,
 * "Two stores"), as writes of two processes do.
 */
class WriteLanes {
  readonly lanes: WriteQueue[];

  constructor(dataSource: DataSource) {
    const state = { health: { state: 'up', since: Date.now() } as StorageHealth, lastFailureAt: 0 };
    const pool = (dataSource.options as { poolSize?: number }).poolSize ?? DEFAULT_POOL_SIZE;
    const count = dataSource.options.type === 'sqlite' ? 1 : Math.max(1, Math.floor(pool / 2));
    this.lanes = Array.from({ length: count }, () => new WriteQueue(dataSource, state));
  }

  laneOf(keys: readonly string[] | undefined): WriteQueue {
    if (this.lanes.length === 1 || keys === undefined || keys.length === 0) return this.lanes[0];
    return this.lanes[hashOf(keys[0]) % this.lanes.length];
  }

  async idle(): Promise<void> {
    await Promise.all(this.lanes.map((lane) => lane.idle()));
  }
}

/** node-postgres' own default, for a data source opened without a pool size. */
const DEFAULT_POOL_SIZE = 10;

/** FNV-1a: cheap, and spreads keys that differ only at the end. */
function hashOf(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

const writers = new WeakMap<DataSource, WriteLanes>();

function lanesOf(dataSource: DataSource): WriteLanes {
  let lanes = writers.get(dataSource);
  if (lanes === undefined) {
    lanes = new WriteLanes(dataSource);
    writers.set(dataSource, lanes);
  }
  return lanes;
}

/**
 * Every write of the apps goes through here. SQLite drivers share one connection, so two
 * interleaved TypeORM transactions would silently run inside each other; writers of one data
 * source share one queue, so repositories that each hold a writer still never overlap.
 */
export class SerialWriter {
  private readonly lanes: WriteLanes;

  /** `owned`: a data source opened for this writer alone (openSerialWriter), closed with the app. */
  constructor(
    dataSource: DataSource,
    private readonly owned?: DataSource,
  ) {
    this.lanes = lanesOf(dataSource);
  }

  /** Resolves once the write is committed; rejects if it threw (rolled back alone) or the commit failed. */
  write<T>(work: Work<T>): Promise<T> {
    return this.writeKeyed(undefined, work);
  }

  /**
   * A write that names, with `keys`, everything it reads or changes (say
   * `transaction:<merchant>:<id>`): in a batch it may run at the same time as the writes that
   * share no key with it, while those that share one, and every write without keys, keep their
   * order with it. A write that reads or changes anything its keys do not name must have none.
   */
  writeKeyed<T>(keys: readonly string[] | undefined, work: Work<T>): Promise<T> {
    return this.enqueue({ keys }, work);
  }

  /**
   * writeKeyed for a write that sends one statement to a database server (Sql.together counts
   * as one): alone in its batch, it runs as a transaction of its own, without BEGIN and COMMIT,
   * two trips fewer; it is resolved once it returned, committed (contract, "Two stores"). With
   * others it shares their transaction, as any write.
   */
  writeOne<T>(keys: readonly string[] | undefined, work: Work<T>): Promise<T> {
    return this.enqueue({ keys, single: true }, work);
  }

  private enqueue<T>(options: Pick<Job, 'keys' | 'single'>, work: Work<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.lanes
        .laneOf(options.keys)
        .enqueue({ ...options, work, resolve: resolve as (value: unknown) => void, reject });
    });
  }

  /** Whether writing works: the last write's result, checked again by a probe write while down. */
  async health(): Promise<StorageHealth> {
    return this.lanes.lanes[0].probe();
  }

  /** NestJS's shutdown hook: the writer's own connection closes once its writes are done. */
  async onApplicationShutdown(): Promise<void> {
    if (this.owned === undefined) return;
    await this.lanes.idle();
    if (this.owned.isInitialized) await this.owned.destroy();
  }
}
