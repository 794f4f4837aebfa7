import type { StoredRun } from './run-store';

/**
 * Conformance runs in the database several replicas share, as stored: a run whose replica died
 * reads unfinished (StoredRunRecords shows it cut). Replicas share PostgreSQL alone.
 */
export interface RunRows {
  /**
   * Stores a new run unless `admit`, shown the runs not finished started after `sinceMs`, throws;
   * one begin at a time across the processes sharing the database.
   */
  insertIfAdmitted(run: StoredRun, sinceMs: number, admit: (running: StoredRun[]) => void): Promise<void>;
  /** Stores the run; one already stored takes the new end and results. */
  put(run: StoredRun): Promise<void>;
  /** Keeps the merchant's newest `perAccount` runs, and the newest `inAll` runs of all. */
  trim(merchantId: string, perAccount: number, inAll: number): Promise<void>;
  /** The merchant's run: another merchant's is not found. */
  get(merchantId: string, id: string): Promise<StoredRun | undefined>;
  /** The merchant's newest runs, newest first. */
  newest(merchantId: string, limit: number): Promise<StoredRun[]>;
}
