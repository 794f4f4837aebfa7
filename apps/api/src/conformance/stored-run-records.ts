import { CUT_MARGIN_MS, type RunRecords } from './run-records';
import type { RunRows } from './run-rows';
import { RUNS_IN_ALL, RUNS_PER_ACCOUNT, type StoredRun } from './run-store';

/**
 * Conformance runs in the database several replicas share: the replica that runs one writes it as
 * it grows, any replica reads it. A run whose replica died before it ended is shown as cut at its
 * limit once CUT_MARGIN_MS past it (contract §17: whatever still waits after `runMs` is cut).
 */
export class StoredRunRecords implements RunRecords {
  /** One write after another: a run's later state never overtaken by an earlier one. */
  private writes: Promise<void> = Promise.resolve();

  constructor(
    private readonly rows: RunRows,
    private readonly runMs: number,
    private readonly now: () => number,
  ) {}

  save(run: StoredRun): Promise<void> {
    // As it is now: the run goes on changing while earlier writes wait.
    const stored = structuredClone(run);
    const write = this.writes.then(async () => {
      await this.rows.put(stored);
      // The account's newest runs, and the newest in all, are kept; a new run makes room.
      if (run.finishedAtMs === null && run.results.length === 0)
        await this.rows.trim(run.merchantId, RUNS_PER_ACCOUNT, RUNS_IN_ALL);
    });
    this.writes = write.catch(() => undefined);
    return write;
  }

  async get(merchantId: string, id: string): Promise<StoredRun | undefined> {
    const run = await this.rows.get(merchantId, id);
    return run === undefined ? undefined : this.cutIfLeft(run);
  }

  async list(merchantId: string): Promise<StoredRun[]> {
    return (await this.rows.newest(merchantId, RUNS_PER_ACCOUNT)).map((run) => this.cutIfLeft(run));
  }

  async running(sinceMs: number): Promise<StoredRun[]> {
    return (await this.rows.unfinishedSince(sinceMs)).map((run) => this.cutIfLeft(run));
  }

  /** A run still unfinished CUT_MARGIN_MS past its limit: its replica died, and it was cut then. */
  private cutIfLeft(run: StoredRun): StoredRun {
    const cutAtMs = run.startedAtMs + this.runMs;
    if (run.finishedAtMs !== null || this.now() <= cutAtMs + CUT_MARGIN_MS) return run;
    return { ...run, finishedAtMs: cutAtMs };
  }
}
