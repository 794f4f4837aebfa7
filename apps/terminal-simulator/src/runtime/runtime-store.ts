import type { TransactionEvent } from '@tps/contracts';
import type { LifecycleStatus } from '@tps/domain';
import type { LinkEvent, OperationOrder } from '@tps/link';

export function transactionKey(merchantId: string, clientTransactionId: string): string {
  return `${merchantId}:${clientTransactionId}`;
}

/** A transaction as the terminal's store keeps it. */
export interface StoredTransaction {
  key: string;
  order: OperationOrder;
  status: LifecycleStatus;
}

/**
 * `record` refused a TERMINAL_ACKNOWLEDGED: its transaction (merchant and client_transaction_id)
 * is stored already, so the terminal ran that id before. Nothing of the refused event is stored.
 */
export class TransactionAlreadyStoredError extends Error {
  constructor(readonly key: string) {
    super(`transaction ${key} is stored already`);
    this.name = 'TransactionAlreadyStoredError';
  }
}

/**
 * What the runtime needs from the terminal's persistent store. The SQLite store implements it;
 * unit tests use an in-memory one, so the runtime can be driven without a database.
 */
export interface RuntimeStore {
  /** Read only to tell a refusal apart (busy or already run), never before a write. */
  findTransaction(key: string): Promise<StoredTransaction | null>;
  /**
   * Stores a run of consecutive events of one transaction in one write (the offline queue keeps
   * them until the service acknowledges them) and the state the last one moves it to. A run that
   * starts with TERMINAL_ACKNOWLEDGED creates the transaction, and rejects with
   * TransactionAlreadyStoredError if it exists: the store's key, not a read, refuses a reused id.
   */
  record(serialNumber: string, order: OperationOrder, links: LinkEvent[]): Promise<unknown>;
  /** Transactions left unfinished by a crash. */
  unfinished(serialNumber: string): Promise<StoredTransaction[]>;
  lastEvent(key: string): Promise<{ envelope: TransactionEvent } | null>;
}
