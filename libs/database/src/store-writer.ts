import type { EntityManager } from 'typeorm';

/** A write: what it sends goes through `manager`, inside the write's transaction. */
export type Work<T> = (manager: EntityManager) => Promise<T>;

/**
 * How one store runs writes (its adapter: sqlite/, postgres/). A write resolves once its COMMIT
 * returned, and rejects with what failed it: its own error (nothing of it stored) or the storage's
 * (SerialWriter tells that one apart). A store may run a write more than once (a rollback, a lost
 * conflict): a write touches nothing but the database.
 */
export interface StoreWriter {
  /** `oneStatement`: the write sends one statement (Sql.together counts as one); a store may skip BEGIN and COMMIT. */
  write<T>(work: Work<T>, oneStatement: boolean): Promise<T>;
  /** The write SerialWriter.health sends while the storage is down, to see whether it takes writes again. */
  readonly probe: Work<void>;
  /** Settles once every write asked for so far is committed or known lost. */
  idle(): Promise<void>;
}
