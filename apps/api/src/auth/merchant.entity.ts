import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

@Entity('merchants')
export class MerchantEntity {
  @PrimaryColumn({ name: 'merchant_id', type: 'varchar', length: 64 })
  merchantId!: string;

  @Column({ name: 'secret_key', type: 'varchar', length: 128 })
  secretKey!: string;

  /** The terminal of this credential's Local-form requests. */
  @Column({ name: 'bound_terminal_serial', type: 'varchar', length: 32, nullable: true })
  boundTerminalSerial!: string | null;

  @Column({ name: 'webhook_secret', type: 'varchar', length: 128, nullable: true })
  webhookSecret!: string | null;

  /** How far the sandbox clock of this merchant runs ahead of the real one. */
  @Column({ name: 'clock_offset_seconds', type: 'integer', default: 0 })
  clockOffsetSeconds!: number;

  @CreateDateColumn({ name: 'created_at' })
  createdAt!: Date;
}
