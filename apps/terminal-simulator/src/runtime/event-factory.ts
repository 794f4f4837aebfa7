import { randomUUID } from 'node:crypto';
import { amountToPesos, centavosToPesos, type LifecycleStatus, type ReadingType } from '@tps/domain';
import type { FailureReason, OperationSnapshot, TerminalInfo, TransactionEvent } from '@tps/contracts';
import type { OperationOrder, TerminalProfile } from '@tps/link';

export interface EventDetails {
  interactionAttempt?: number;
  readingType?: ReadingType;
  failureReason?: FailureReason;
}

export function terminalInfo(profile: TerminalProfile): TerminalInfo {
  return {
    serialNumber: profile.serialNumber,
    model: profile.model,
    wifiMac: profile.wifiMac,
    room: profile.room,
  };
}

export function operationSnapshot(order: OperationOrder): OperationSnapshot {
  const amount: OperationSnapshot['amount'] = amountToPesos(order.amount);
  if (order.type === 'pos_tip') amount.tip = centavosToPesos(order.tip ?? 0);
  const snapshot: OperationSnapshot = {
    type: order.type,
    amount,
    clientTransactionId: order.clientTransactionId,
    eventsWebHook: order.eventsWebhookUrl,
    metadata: order.metadata,
  };
  if (order.transactionReference !== undefined) snapshot.transactionReference = order.transactionReference;
  return snapshot;
}

/** Builds one envelope, fields in the specification's order; no cardholder data ever. */
export function buildEvent(
  profile: TerminalProfile,
  order: OperationOrder,
  previous: LifecycleStatus | null,
  status: LifecycleStatus,
  details: EventDetails,
  occurredAt: Date,
): TransactionEvent {
  const event: TransactionEvent = {
    event_id: randomUUID(),
    previous_status: previous ?? '',
    occurred_at: occurredAt.toISOString(),
    status,
    merchant_id: order.merchantId,
    client_transaction_id: order.clientTransactionId,
    terminal: terminalInfo(profile),
    operation: operationSnapshot(order),
  };
  const ordered: TransactionEvent = {
    event_id: event.event_id,
    previous_status: event.previous_status,
    occurred_at: event.occurred_at,
    status: event.status,
    merchant_id: event.merchant_id,
    client_transaction_id: event.client_transaction_id,
    ...(details.interactionAttempt !== undefined ? { interaction_attempt: details.interactionAttempt } : {}),
    ...(details.readingType !== undefined ? { reading_type: details.readingType } : {}),
    ...(details.failureReason !== undefined ? { failure_reason: details.failureReason } : {}),
    terminal: event.terminal,
    operation: event.operation,
  };
  return ordered;
}
