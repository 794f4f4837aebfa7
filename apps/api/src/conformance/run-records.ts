import { RunStore, type StoredRun } from './run-store';

/**
 * Where conformance runs are kept (docs/contract.md, "The conformance run"): the process's memory
 * on one process; the database several replicas share, so that any replica reads a run and the
 * limits on runs at once hold across them.
 */
export interface RunRecords {
  /**
   * Stores a new run unless `admit`, shown the runs going on (started after `sinceMs`), throws:
   * then nothing is stored and its error is thrown. Two begins at once, on any replica, never both
   * pass an `admit` that refuses a second run.
   */
  begin(run: StoredRun, sinceMs: number, admit: (running: StoredRun[]) => void): Promise<void>;
  /** Keeps the run as it is now, as each case is decided and when it ends. */
  save(run: StoredRun): Promise<void>;
  /** Another account's run is as unknown as one that never was. */
  get(merchantId: string, id: string): Promise<StoredRun | undefined>;
  /** The account's runs, newest first. */
  list(merchantId: string): Promise<StoredRun[]>;
}

export const RUN_RECORDS = Symbol('RunRecords');

/** Past its limit by this much, a run still unfinished is one whose replica died. */
export const CUT_MARGIN_MS = 10_000;

/** One process: the runs in its memory, bounded. */
export class LocalRunRecords implements RunRecords {
  private readonly store = new RunStore();

  begin(run: StoredRun, sinceMs: number, admit: (running: StoredRun[]) => void): Promise<void> {
    // Checked and stored with no wait between them: no other begin comes in between. What
    // `admit` throws is the promise's rejection.
    return new Promise((resolve) => {
      admit(this.store.running().filter((other) => other.startedAtMs > sinceMs));
      this.store.add(run);
      resolve();
    });
  }

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
}
