import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import { sealedColumn } from '@tps/database';

/**
 * The columns that hold secrets, each with the purpose it is sealed for. Both webhook secret columns
 * share one, so that a rotation moves the sealed text from one to the other in one UPDATE.
 */
export const SEALED_MERCHANT_COLUMNS = {
  secret_key: 'merchants.secret_key',
  webhook_secret: 'merchants.webhook_secret',
  previous_webhook_secret: 'merchants.webhook_secret',
} as const;

/** Also for reads in raw SQL, which pass no transformer: they open the column's text with it. */
export const WEBHOOK_SECRET_COLUMN = sealedColumn(SEALED_MERCHANT_COLUMNS.webhook_secret);

@Entity('merchants')
export class MerchantEntity {
  @PrimaryColumn({ name: 'merchant_id', type: 'varchar', length: 64 })
  merchantId!: string;

  /** Sealed at rest (contract, "Secrets at rest"); the entity holds the value itself. */
  @Column({
    name: 'secret_key',
    type: 'varchar',
    length: 256,
    transformer: sealedColumn(SEALED_MERCHANT_COLUMNS.secret_key),
  })
  secretKey!: string;

  /** The terminal of this credential's Local-form requests. */
  @Column({ name: 'bound_terminal_serial', type: 'varchar', length: 32, nullable: true })
  boundTerminalSerial!: string | null;

  @Column({
    name: 'webhook_secret',
    type: 'varchar',
    length: 256,
    nullable: true,
    transformer: WEBHOOK_SECRET_COLUMN,
  })
  webhookSecret!: string | null;

  /** The secret a rotation replaced, which also signs until `previousWebhookSecretUntil`. */
  @Column({
    name: 'previous_webhook_secret',
    type: 'varchar',
    length: 256,
    nullable: true,
    transformer: WEBHOOK_SECRET_COLUMN,
  })
  previousWebhookSecret!: string | null;

  /** ISO 8601, real time (webhook timestamps are): the end of the rotated secret's overlap. */
  @Column({ name: 'previous_webhook_secret_until', type: 'varchar', length: 32, nullable: true })
  previousWebhookSecretUntil!: string | null;

  /** How far the sandbox clock of this merchant runs ahead of the real one. */
  @Column({ name: 'clock_offset_seconds', type: 'integer', default: 0 })
  clockOffsetSeconds!: number;

  @CreateDateColumn({ name: 'created_at' })
  createdAt!: Date;
}
