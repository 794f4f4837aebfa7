import type { EntityManager, ObjectLiteral } from 'typeorm';

/** The print job's properties the queue's statements name (the simulator's print jobs). */
export interface QueuedPrintJob extends ObjectLiteral {
  seq: number;
  serialNumber: string;
  status: string;
  version: number;
  reportedVersion: number;
}

/**
 * A terminal's print queue beyond what its entity's table reads and writes (EntityTable): every
 * job it took, in the order taken; `version` counts a job's changes, `reportedVersion` the last
 * one the service acknowledged (contract §11, §13). A method given `within` runs in that write.
 */
export abstract class PrintQueue<Job extends QueuedPrintJob> {
  /** The terminal's oldest job whose status is one of `statuses`, or null. */
  abstract oldestIn(serial: string, statuses: readonly string[]): Promise<Job | null>;
  /** The terminal's jobs with a change the service has not acknowledged, oldest first, at most `limit`. */
  abstract unreported(serial: string, limit: number): Promise<Job[]>;
  /** Sets `changes` on the job and counts the change (one more `version`), in one statement. */
  abstract change(within: EntityManager, seq: number, changes: Partial<Job>): Promise<void>;
  /** The service acknowledged the job's changes up to `version`; an older version changes nothing. */
  abstract markReported(within: EntityManager, seq: number, version: number): Promise<void>;
}
