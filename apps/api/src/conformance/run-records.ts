import { RunStore, type StoredRun } from './run-store';

/**
 * Where conformance runs are kept (docs/contract.md, "The conformance run"): the process's memory
 * on one process; the database several replicas share, so that any replica reads a run and the
 * limits on runs at once hold across them.
 */
export interface RunRecords {
  /** Keeps the run as it is now: when it starts, as each case is decided, when it ends. */
  save(run: StoredRun): Promise<void>;
  /** Another account's run is as unknown as one that never was. */
  get(merchantId: string, id: string): Promise<StoredRun | undefined>;
  /** The account's runs, newest first. */
  list(merchantId: string): Promise<StoredRun[]>;
  /** Runs not finished, started after `sinceMs` (older ones were cut). */
  running(sinceMs: number): Promise<StoredRun[]>;
}

export const RUN_RECORDS = Symbol('RunRecords');

/** Past its limit by this much, a run still unfinished is one whose replica died. */
export const CUT_MARGIN_MS = 10_000;

/** One process: the runs in its memory, bounded. */
export class LocalRunRecords implements RunRecords {
  private readonly store = new RunStore();

  save(run: StoredRun): Promise<void> {
    this.store.add(run);
    return Promise.resolve();
  }

  get(merchantId: string, id: string): Promise<StoredRun | undefined> {
    return Promise.resolve(this.store.get(merchantId, id));
  }

  list(merchantId: string): Promise<StoredRun[]> {
    return Promise.resolve(this.store.list(merchantId));
  }

  running(sinceMs: number): Promise<StoredRun[]> {
    return Promise.resolve(this.store.running().filter((run) => run.startedAtMs > sinceMs));
  }
}
