import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { PrintJobStatus } from '@tps/domain';
import type { PrintCallbackRecord, PrintCommand } from '@tps/contracts';

/** A print job as the service records it; the terminal's reports move it along. */
@Entity('print_jobs')
@Index(['merchantId', 'createdAt'])
export class PrintJobEntity {
  @PrimaryColumn({ name: 'print_job_id', type: 'varchar', length: 36 })
  printJobId!: string;

  @Column({ name: 'merchant_id', type: 'varchar', length: 64 })
  merchantId!: string;

  @Column({ name: 'terminal_serial', type: 'varchar', length: 32 })
  terminalSerial!: string;

  @Column({ type: 'varchar', length: 16 })
  status!: PrintJobStatus;

  @Column({ name: 'external_reference', type: 'varchar', length: 128, default: '' })
  externalReference!: string;

  @Column({ name: 'webhook_url', type: 'varchar', length: 2048, default: '' })
  webhookUrl!: string;

  /** Set when the job is the standard receipt of this transaction. */
  @Column({ name: 'transaction_reference', type: 'varchar', length: 36, nullable: true })
  transactionReference!: string | null;

  @Column({ type: 'simple-json' })
  commands!: PrintCommand[];

  @Column({ name: 'error_code', type: 'varchar', length: 16, nullable: true })
  errorCode!: string | null;

  @Column({ name: 'error_message', type: 'varchar', length: 255, nullable: true })
  errorMessage!: string | null;

  @Column({ name: 'printed_text', type: 'text', nullable: true })
  printedText!: string | null;

  @Column({ type: 'simple-json', nullable: true })
  callback!: PrintCallbackRecord | null;

  /** ISO 8601 UTC on the merchant's clock (contract §8). */
  @Column({ name: 'created_at', type: 'varchar', length: 32 })
  createdAt!: string;

  @Column({ name: 'updated_at', type: 'varchar', length: 32 })
  updatedAt!: string;

  /** The process that makes the webhook's one attempt (see DeliveryOwner); null when none holds it. */
  @Column({ name: 'callback_owner', type: 'varchar', length: 128, nullable: true })
  callbackOwner!: string | null;

  /** ISO 8601 UTC: until then no other process takes the webhook's attempt; null when given back. */
  @Column({ name: 'callback_lease_until', type: 'varchar', length: 24, nullable: true })
  callbackLeaseUntil!: string | null;

  /** Counted up at each claim of the webhook's attempt: its outcome is recorded under the epoch claimed at. */
  @Column({ name: 'callback_lease_epoch', type: 'integer', default: 0 })
  callbackLeaseEpoch!: number;
}
