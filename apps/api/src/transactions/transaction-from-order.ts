import { randomUUID } from 'node:crypto';
import type { OperationOrder } from '@tps/link';
import { TransactionEntity } from './transaction.entity';

/**
 * The fingerprint of a transaction the service recorded from its terminal's events, not from a
 * request: any request with its client_transaction_id is answered as its repeat.
 */
export const RECORDED_FROM_TERMINAL = '';

/** A new transaction record for an operation handed to (or taken by) a terminal. */
export function transactionFromOrder(
  order: OperationOrder,
  terminalSerial: string,
  details: { fingerprint: string; targetReference: string | null; createdAt: Date },
): TransactionEntity {
  return Object.assign(new TransactionEntity(), {
    id: randomUUID(),
    merchantId: order.merchantId,
    clientTransactionId: order.clientTransactionId,
    fingerprint: details.fingerprint,
    operationType: order.type,
    mode: order.mode,
    form: order.form,
    terminalSerial,
    status: null,
    amount: order.amount,
    tip: order.tip ?? 0,
    metadata: order.metadata,
    eventsWebhookUrl: order.eventsWebhookUrl,
    transactionReference: null,
    targetReference: details.targetReference,
    acknowledgement: null,
    outcome: null,
    businessState: null,
    businessAmount: null,
    businessTip: 0,
    refundedTotal: 0,
    cardType: null,
    approvedAtMs: null,
    validFromMs: null,
    createdAtMs: details.createdAt.getTime(),
    eventCount: 0,
    deliveryCount: 0,
    createdAt: details.createdAt,
    updatedAt: details.createdAt,
  });
}
