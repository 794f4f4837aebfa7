import type { EntityManager, ObjectLiteral } from 'typeorm';

/** A merchant's webhook-signing secrets as its row stores them (sealed: contract, "Secrets at rest"). */
export interface StoredSigningSecrets {
  current: string | null;
  previous: string | null;
  /** The end of the previous secret's overlap (ISO 8601, real time). */
  previousUntil: string | null;
}

/** Where a delivery's attempt goes and what it sends, with its merchant's secrets. */
export interface StoredDeliveryTarget {
  url: string;
  /** Its payload, or its event's envelope when it left the payload empty (contract, "Rolling deploys: two versions side by side"). */
  body: string;
  eventId: string;
  merchantId: string;
  secrets: StoredSigningSecrets;
}

/** The delivery's columns the outbox's statements name. */
export interface OutboxDelivery extends ObjectLiteral {
  id: string;
  merchantId: string;
}

/**
 * The webhook outbox's rows (contract, "Webhook delivery") beyond what its entities' tables and
 * leases (EntityTable, LeasedQueue) read and write. A method given `within` runs in that write.
 */
export abstract class DeliveryRows<Delivery extends OutboxDelivery> {
  /**
   * Inserts the deliveries in one statement; resolves, by delivery id, its merchant's secrets as
   * that statement read them.
   */
  abstract insertSigned(
    within: EntityManager,
    deliveries: Delivery[],
  ): Promise<Map<string, StoredSigningSecrets>>;
  /** The ids among `ids` of the deliveries still stored. */
  abstract stored(within: EntityManager, ids: readonly string[]): Promise<Set<string>>;
  /** Counts one more delivery of the transaction; resolves its position in the transaction's order. */
  abstract nextPosition(within: EntityManager, transactionId: string): Promise<number>;
  /** The event's envelope as stored: a delivery's body, byte for byte. */
  abstract eventBody(within: EntityManager, eventId: string): Promise<string | undefined>;
  abstract target(id: string): Promise<StoredDeliveryTarget | undefined>;
  /** How many deliveries are pending, and when the oldest of them was staged. */
  abstract backlog(): Promise<{ depth: number; oldestCreatedAt: string | null }>;
  /** Whether a delivery of the transaction before `position` is still pending. */
  abstract earlierPending(transactionId: string, position: number): Promise<boolean>;
  /** Makes sure the destination has a row for each of its slots 1 to `share` (contract §13). */
  abstract seedSlots(destination: string, share: number): Promise<void>;
}
