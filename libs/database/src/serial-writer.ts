import type { DataSource, EntityManager } from 'typeorm';

type Work<T> = (manager: EntityManager) => Promise<T>;

interface Job {
  work: Work<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** Enough to amortise a commit, few enough that one batch never holds the database for long. */
const MAX_BATCH = 64;

/**
 * One data source's writes, one at a time, in the order they were asked for. Writes that arrive
 * while one commits wait and then share one transaction (group commit); if any of them fails,
 * the batch is rolled back and each write runs again in its own transaction, so a write that
 * fails fails alone. A write may therefore run twice: it must touch nothing but the database.
 * Under load this turns a commit per write into one per batch; idle, a write is its own.
 */
class WriteQueue {
  private readonly waiting: Job[] = [];
  private running = false;

  constructor(private readonly dataSource: DataSource) {}

  enqueue(job: Job): void {
    this.waiting.push(job);
    if (!this.running) void this.run();
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
    if (batch.length > 1) {
      const values: unknown[] = [];
      try {
        await this.dataSource.transaction(async (manager) => {
          for (const job of batch) values.push(await job.work(manager));
        });
        return () => batch.forEach((job, i) => job.resolve(values[i]));
      } catch {
        // One write failed, or the commit did: nothing of the batch is stored. Each write runs
        // again alone, so only the failing one fails (a savepoint per write would cost two more
        // statements for each write, for a case that almost never happens).
      }
    }
    const outcomes: Array<() => void> = [];
    for (const job of batch) {
      outcomes.push(
        await this.dataSource.transaction(job.work).then(
          (value) => () => job.resolve(value),
          (error: unknown) => () => job.reject(error),
        ),
      );
    }
    return () => outcomes.forEach((tell) => tell());
  }
}

const queues = new WeakMap<DataSource, WriteQueue>();

/**
 * Every write of the apps goes through here. SQLite drivers share one connection, so two
 * interleaved TypeORM transactions would silently run inside each other; writers of one data
 * source share one queue, so repositories that each hold a writer still never overlap.
 */
export class SerialWriter {
  private readonly queue: WriteQueue;

  constructor(dataSource: DataSource) {
    const existing = queues.get(dataSource);
    this.queue = existing ?? new WriteQueue(dataSource);
    if (existing === undefined) queues.set(dataSource, this.queue);
  }

  /** Resolves once the write is committed; rejects if it threw (rolled back alone) or the commit failed. */
  write<T>(work: Work<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.enqueue({ work, resolve: resolve as (value: unknown) => void, reject });
    });
  }
}
