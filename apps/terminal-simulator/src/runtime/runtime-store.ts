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
 * What the runtime needs from the terminal's persistent store. The SQLite store implements it;
 * unit tests use an in-memory one, so the runtime can be driven without a database.
 */
export interface RuntimeStore {
  findTransaction(key: string): Promise<StoredTransaction | null>;
  /** Stores an event (the offline queue keeps it until the service acknowledges it). */
  record(serialNumber: string, order: OperationOrder, link: LinkEvent): Promise<unknown>;
  /** Transactions left unfinished by a crash. */
  unfinished(serialNumber: string): Promise<StoredTransaction[]>;
  lastEvent(key: string): Promise<{ envelope: TransactionEvent } | null>;
}
