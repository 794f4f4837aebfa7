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

  begin(run: StoredRun, sinceMs: number, admit: (running: StoredRun[]) => void): Promise<void> {
    return this.written(run, async (stored) => {
      await this.rows.insertIfAdmitted(stored, sinceMs, (running) =>
        admit(running.map((other) => this.cutIfLeft(other))),
      );
      // The account's newest runs, and the newest in all, are kept; a new run makes room.
      await this.rows.trim(run.merchantId, RUNS_PER_ACCOUNT, RUNS_IN_ALL);
    });
  }

  save(run: StoredRun): Promise<void> {
    return this.written(run, (stored) => this.rows.put(stored));
  }

  async get(merchantId: string, id: string): Promise<StoredRun | undefined> {
    const run = await this.rows.get(merchantId, id);
    return run === undefined ? undefined : this.cutIfLeft(run);
  }

  async list(merchantId: string): Promise<StoredRun[]> {
    return (await this.rows.newest(merchantId, RUNS_PER_ACCOUNT)).map((run) => this.cutIfLeft(run));
  }

  /** A run still unfinished CUT_MARGIN_MS past its limit: its replica died, and it was cut then. */
  private cutIfLeft(run: StoredRun): StoredRun {
    const cutAtMs = run.startedAtMs + this.runMs;
    if (run.finishedAtMs !== null || this.now() <= cutAtMs + CUT_MARGIN_MS) return run;
    return { ...run, finishedAtMs: cutAtMs };
  }

  /** Writes the run as it is now, after the writes before it. */
  private written(run: StoredRun, write: (stored: StoredRun) => Promise<void>): Promise<void> {
    // Copied: the run goes on changing while earlier writes wait.
    const stored = structuredClone(run);
    const done = this.writes.then(() => write(stored));
    this.writes = done.catch(() => undefined);
    return done;
  }
}
