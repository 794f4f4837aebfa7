import type { TransactionRecord } from './transaction-record';

/**
 * What deciding a follow-up reads (contract §9): inside the write that records it, so nothing
 * falls between the check and the record.
 */
export interface FollowUpReads<R extends TransactionRecord = TransactionRecord> {
  findByReference(merchantId: string, transactionReference: string): Promise<R | null>;
  /** Whether a follow-up on this reference was started and has no outcome yet. */
  hasFollowUpRunning(merchantId: string, targetReference: string): Promise<boolean>;
  /** Whether a request already took this client_transaction_id (then it is answered as a repeat). */
  isTaken(merchantId: string, clientTransactionId: string): Promise<boolean>;
}
