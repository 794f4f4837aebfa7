import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';
import type { CardholderMode, TerminalPace } from '@tps/domain';

@Entity('terminals')
export class TerminalEntity {
  @PrimaryColumn({ name: 'serial_number', type: 'varchar', length: 32 })
  serialNumber!: string;

  @Index()
  @Column({ name: 'merchant_id', type: 'varchar', length: 64 })
  merchantId!: string;

  @Column({ type: 'varchar', length: 64 })
  model!: string;

  @Column({ name: 'wifi_mac', type: 'varchar', length: 32 })
  wifiMac!: string;

  @Column({ type: 'varchar', length: 64 })
  room!: string;

  @Column({ type: 'varchar', length: 16 })
  pace!: TerminalPace;

  @Column({ type: 'varchar', length: 16, default: 'ok' })
  printer!: string;

  /** Set by the sandbox: the terminal's uplink is cut. */
  @Column({ type: 'boolean', default: false })
  offline!: boolean;

  /** Contract §15: `manual` waits for the sandbox card action on every operation. */
  @Column({ type: 'varchar', length: 8, default: 'auto' })
  cardholder!: CardholderMode;

  /** Contract §15: when `manual` was set (ISO, real time), so that it lapses; null when `auto`. */
  @Column({ name: 'cardholder_set_at', type: 'varchar', length: 32, nullable: true })
  cardholderSetAt!: string | null;

  /** Contract §15: the client address that set `manual`; null when `auto`. */
  @Column({ name: 'cardholder_set_from', type: 'varchar', length: 64, nullable: true })
  cardholderSetFrom!: string | null;

  @CreateDateColumn({ name: 'created_at' })
  createdAt!: Date;
}
