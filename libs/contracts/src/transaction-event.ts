import type { AmountPesos, LifecycleStatus, OperationType, ReadingType } from '@tps/domain';

export interface FailureReason {
  type: string;
  code: string;
  message: string;
}

export interface TerminalInfo {
  serialNumber: string;
  model: string;
  wifiMac: string;
  room: string;
}

/** Snapshot of the operation that started the transaction; camelCase, as the specification says. */
export interface OperationSnapshot {
  type: OperationType;
  amount: AmountPesos & { tip?: number };
  clientTransactionId: string;
  eventsWebHook: string;
  metadata: Record<string, string>;
  transactionReference?: string;
}

/** The one envelope of every async answer and every transaction webhook delivery. */
export interface TransactionEvent {
  event_id: string;
  previous_status: LifecycleStatus | '';
  occurred_at: string;
  status: LifecycleStatus;
  merchant_id: string;
  client_transaction_id: string;
  interaction_attempt?: number;
  reading_type?: ReadingType;
  failure_reason?: FailureReason;
  terminal: TerminalInfo;
  operation: OperationSnapshot;
}
