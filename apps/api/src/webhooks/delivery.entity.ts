import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { DeliveryFailure } from '@tps/delivery';

export type DeliveryState = 'pending' | 'delivered' | 'failed';

/**
 * The payload of a delivery whose body is its event's envelope, stored once in
 * `transaction_events` (docs/contract.md, "Rolling deploys"): empty.
 */
export const EVENT_BODY = '';

/** One event to deliver to one webhook URL: the outbox row (contract §6). */
@Entity('webhook_deliveries')
@Index(['transactionId', 'position'], { unique: true })
@Index(['merchantId', 'clientTransactionId'])
export class DeliveryEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id!: string;

  @Column({ name: 'merchant_id', type: 'varchar', length: 64 })
  merchantId!: string;

  /** The transaction whose events go out in order. */
  @Column({ name: 'transaction_id', type: 'varchar', length: 36 })
  transactionId!: string;

  /** Order among the transaction's deliveries, from 1. */
  @Column({ type: 'integer' })
  position!: number;

  @Column({ name: 'client_transaction_id', type: 'varchar', length: 36 })
  clientTransactionId!: string;

  @Index()
  @Column({ name: 'event_id', type: 'varchar', length: 36 })
  eventId!: string;

  @Column({ name: 'event_status', type: 'varchar', length: 24 })
  eventStatus!: string;

  @Column({ type: 'varchar', length: 2048 })
  url!: string;

  /**
   * The exact body sent (and signed) on every attempt; EVENT_BODY when it is the event's envelope,
   * as a replica writes it while every live replica reads bodies from events.
   */
  @Column({ type: 'text' })
  payload!: string;

  @Index()
  @Column({ type: 'varchar', length: 16 })
  state!: DeliveryState;

  @Column({ type: 'varchar', length: 24, nullable: true })
  failure!: DeliveryFailure | null;

  @Column({ name: 'attempt_count', type: 'integer', default: 0 })
  attemptCount!: number;

  /** ISO 8601 UTC; the 15-minute window counts from here. */
  @Column({ name: 'first_attempt_at', type: 'varchar', length: 24, nullable: true })
  firstAttemptAt!: string | null;

  /** ISO 8601 UTC while pending, else null. */
  @Column({ name: 'next_attempt_at', type: 'varchar', length: 24, nullable: true })
  nextAttemptAt!: string | null;

  /** The delivery this one sends again (a sandbox redelivery), if any. */
  @Column({ name: 'redelivery_of', type: 'varchar', length: 36, nullable: true })
  redeliveryOf!: string | null;

  @Column({ name: 'created_at', type: 'varchar', length: 24 })
  createdAt!: string;

  /** The process that makes its attempts (see DeliveryOwner); null when no process holds it. */
  @Column({ name: 'lease_owner', type: 'varchar', length: 128, nullable: true })
  leaseOwner!: string | null;

  /** ISO 8601 UTC: until then no other process takes it; null when given back. */
  @Column({ name: 'lease_until', type: 'varchar', length: 24, nullable: true })
  leaseUntil!: string | null;

  /** Counted up at each claim: the process records under the epoch it claimed at (LeasedQueue). */
  @Column({ name: 'lease_epoch', type: 'integer', default: 0 })
  leaseEpoch!: number;
}
