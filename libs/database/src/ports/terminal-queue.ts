import type { EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';

/** The entities of a terminal's store whose rows the queue reads (the simulator's). */
export interface TerminalQueueTables {
  /** Its events: seq, serialNumber, transactionKey, eventId, envelope, outcome, acked. */
  events: EntityTarget<ObjectLiteral>;
  /** Its transactions: key, order. */
  transactions: EntityTarget<ObjectLiteral>;
}

/** An event of the queue, its values as the entities hold them. */
export interface QueuedEvent {
  seq: number;
  envelope: unknown;
  outcome: unknown;
  /** Its transaction's order; null when the transaction is not stored. */
  order: unknown;
}

/**
 * A terminal's queue of events for the service (contract, "Links between the apps"): an event leaves it
 * once the service acknowledged it.
 */
export abstract class TerminalQueue {
  /** The terminal's oldest events not acknowledged, at most `limit`, oldest first. */
  abstract pending(serial: string, limit: number): Promise<QueuedEvent[]>;
  /** Every event of the transaction, in order. */
  abstract ofTransaction(key: string): Promise<QueuedEvent[]>;
  /** Marks acknowledged the events whose `property` is one of `values`; others change nothing. */
  abstract acknowledge(
    within: EntityManager,
    property: 'seq' | 'eventId',
    values: readonly (string | number)[],
  ): Promise<void>;
}
