import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import type {
  AmountCentavos,
  BusinessState,
  LifecycleStatus,
  OperationMode,
  OperationType,
} from '@tps/domain';
import type { TransactionEvent } from '@tps/contracts';
import type { TransactionOutcome } from '@tps/link';
import type { RequestForm } from '../terminals/request-form';

/** Milliseconds stored as bigint, which some drivers hand back as strings. */
const MILLISECONDS = {
  to: (value: number | null): number | null => value,
  from: (value: string | number | null): number | null => (value === null ? null : Number(value)),
};

/** One operation, with its own lifecycle; also the idempotency record of its request. */
@Entity('transactions')
@Index(['merchantId', 'clientTransactionId'], { unique: true })
export class TransactionEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id!: string;

  @Column({ name: 'merchant_id', type: 'varchar', length: 64 })
  merchantId!: string;

  @Column({ name: 'client_transaction_id', type: 'varchar', length: 36 })
  clientTransactionId!: string;

  /** Method, path and body of the first request: a different one under the same id is TRX-001. */
  @Column({ type: 'varchar', length: 64 })
  fingerprint!: string;

  @Column({ name: 'operation_type', type: 'varchar', length: 24 })
  operationType!: OperationType;

  @Column({ type: 'varchar', length: 8 })
  mode!: OperationMode;

  @Column({ type: 'varchar', length: 8 })
  form!: RequestForm;

  @Column({ name: 'terminal_serial', type: 'varchar', length: 32 })
  terminalSerial!: string;

  @Column({ type: 'varchar', length: 24, nullable: true })
  status!: LifecycleStatus | null;

  @Column({ type: 'simple-json' })
  amount!: AmountCentavos;

  @Column({ type: 'integer', default: 0 })
  tip!: number;

  @Column({ type: 'simple-json' })
  metadata!: Record<string, string>;

  @Column({ name: 'events_webhook_url', type: 'varchar', length: 2048, default: '' })
  eventsWebhookUrl!: string;

  /** This transaction's own reference, once approved. */
  @Index()
  @Column({ name: 'transaction_reference', type: 'varchar', length: 36, nullable: true })
  transactionReference!: string | null;

  /** The reference of the transaction this operation acts on (capture, void, …). */
  @Column({ name: 'target_reference', type: 'varchar', length: 36, nullable: true })
  targetReference!: string | null;

  @Column({ type: 'simple-json', nullable: true })
  acknowledgement!: TransactionEvent | null;

  @Column({ type: 'simple-json', nullable: true })
  outcome!: TransactionOutcome | null;

  /** Approved charge, authorization or capture only: its business state (contract §9). */
  @Column({ name: 'business_state', type: 'varchar', length: 24, nullable: true })
  businessState!: BusinessState | null;

  /** The authorized amount (a re-authorization replaces it) or the settled one. */
  @Column({ name: 'business_amount', type: 'simple-json', nullable: true })
  businessAmount!: AmountCentavos | null;

  /** The tip a pos_tip added to this settled transaction. */
  @Column({ name: 'business_tip', type: 'integer', default: 0 })
  businessTip!: number;

  @Column({ name: 'refunded_total', type: 'integer', default: 0 })
  refundedTotal!: number;

  @Column({ name: 'card_type', type: 'varchar', length: 16, nullable: true })
  cardType!: string | null;

  /** Merchant-clock time of the approval: the void cut-off counts from its day. */
  @Column({ name: 'approved_at_ms', type: 'bigint', nullable: true, transformer: MILLISECONDS })
  approvedAtMs!: number | null;

  /** Merchant-clock start of a pre-authorization's validity (approval or last re-authorization). */
  @Column({ name: 'valid_from_ms', type: 'bigint', nullable: true, transformer: MILLISECONDS })
  validFromMs!: number | null;

  /** Merchant-clock creation time: orders and pages transaction search. */
  @Column({ name: 'created_at_ms', type: 'bigint', default: 0, transformer: MILLISECONDS })
  createdAtMs!: number;

  /** How many events are stored: the next one's sequence follows it. */
  @Column({ name: 'event_count', type: 'integer', default: 0 })
  eventCount!: number;

  /** How many webhook deliveries were staged (redeliveries too): the next one's position follows it. */
  @Column({ name: 'delivery_count', type: 'integer', default: 0 })
  deliveryCount!: number;

  @CreateDateColumn({ name: 'created_at' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at' })
  updatedAt!: Date;
}
