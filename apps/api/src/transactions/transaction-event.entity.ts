import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';
import type { LifecycleStatus } from '@tps/domain';
import type { TransactionEvent } from '@tps/contracts';

/** Every lifecycle event of a transaction, kept as the exact envelope that was emitted. */
@Entity('transaction_events')
@Index(['transactionId', 'sequence'], { unique: true })
export class TransactionEventEntity {
  @PrimaryColumn({ name: 'event_id', type: 'varchar', length: 36 })
  eventId!: string;

  @Column({ name: 'transaction_id', type: 'varchar', length: 36 })
  transactionId!: string;

  /** Position in the transaction's chain, from 1. */
  @Column({ type: 'integer' })
  sequence!: number;

  @Column({ type: 'varchar', length: 24 })
  status!: LifecycleStatus;

  @Column({ name: 'previous_status', type: 'varchar', length: 24 })
  previousStatus!: string;

  @Column({ name: 'occurred_at', type: 'varchar', length: 32 })
  occurredAt!: string;

  @Column({ type: 'simple-json' })
  envelope!: TransactionEvent;

  @CreateDateColumn({ name: 'received_at' })
  receivedAt!: Date;
}
