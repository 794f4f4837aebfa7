import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import { sealedColumn } from '@tps/database';

/** Also for reads in raw SQL, which pass no transformer: they open the column's text with it. */
export const WEBHOOK_SECRET_COLUMN = sealedColumn('merchants.webhook_secret');

@Entity('merchants')
export class MerchantEntity {
  @PrimaryColumn({ name: 'merchant_id', type: 'varchar', length: 64 })
  merchantId!: string;

  /** Sealed at rest (contract, "Secrets at rest"); the entity holds the value itself. */
  @Column({
    name: 'secret_key',
    type: 'varchar',
    length: 256,
    transformer: sealedColumn('merchants.secret_key'),
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

  /** How far the sandbox clock of this merchant runs ahead of the real one. */
  @Column({ name: 'clock_offset_seconds', type: 'integer', default: 0 })
  clockOffsetSeconds!: number;

  @CreateDateColumn({ name: 'created_at' })
  createdAt!: Date;
}
