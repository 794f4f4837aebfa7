import { isFollowUp } from './business-state';
import { referenceStandsForTarget, type OperationType } from './operation-types';
import type { EventEnvelope, TransactionRecord } from './transaction-record';

/** An operation as the terminal took it, by the fields adoption reads. */
export interface AdoptableOrder {
  type: OperationType;
  merchantId: string;
  clientTransactionId: string;
  transactionReference?: string;
}

/**
 * Whether the service may record a transaction it has no record of (its request was lost with a
 * crash or a cut link) from the order its terminal took: only from the acknowledgement, and only
 * for the merchant of the terminal whose link the event came by, under the event's own name.
 */
export function mayAdopt<Order extends AdoptableOrder>(
  terminalMerchantId: string,
  event: EventEnvelope,
  order: Order | undefined,
): order is Order {
  return (
    event.status === 'TERMINAL_ACKNOWLEDGED' &&
    order !== undefined &&
    order.merchantId === terminalMerchantId &&
    order.merchantId === event.merchant_id &&
    order.clientTransactionId === event.client_transaction_id
  );
}

/**
 * The reference a follow-up naming `reference` acts on, given the transaction it names (null when
 * none is known): a re-authorization's or a tip's own reference stands for the transaction it
 * acted on (contract §2).
 */
export function followUpTargetReference(named: TransactionRecord | null, reference: string): string {
  return named !== null && referenceStandsForTarget(named.operationType) && named.targetReference !== null
    ? named.targetReference
    : reference;
}

/** Whether an order acts on an earlier transaction, and by which reference it names it. */
export function namedReferenceOf(order: AdoptableOrder): string | null {
  return order.transactionReference !== undefined && isFollowUp(order.type)
    ? order.transactionReference
    : null;
}
