import { transition, type LifecycleStatus } from './lifecycle';
import type { EventEnvelope, TransactionRecord } from './transaction-record';

/**
 * The state an event moves its stored transaction to, or why it cannot: it must follow the
 * state the transaction is at, through the lifecycle's transition function.
 */
export function followingStatus(record: TransactionRecord, event: EventEnvelope): LifecycleStatus | Error {
  if (event.previous_status !== (record.status ?? '')) {
    return new Error(
      `event ${event.event_id} follows ${event.previous_status || '(none)'} but ${record.clientTransactionId} is at ${record.status ?? '(none)'}`,
    );
  }
  try {
    return transition(record.status, event.status);
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}
