import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import type { TransactionEvent } from '@tps/contracts';
import type { TransactionOutcome } from '@tps/link';

/**
 * Every event the terminal emitted, in emission order. Rows not yet acknowledged by the service
 * are the persistent offline queue.
 */
@Entity('terminal_events')
@Index(['serialNumber', 'acked', 'seq'])
@Index(['transactionKey', 'seq'])
export class TerminalEventEntity {
  @PrimaryGeneratedColumn({ type: 'integer' })
  seq!: number;

  @Column({ name: 'serial_number', type: 'varchar', length: 32 })
  serialNumber!: string;

  @Column({ name: 'transaction_key', type: 'varchar', length: 120 })
  transactionKey!: string;

  @Index({ unique: true })
  @Column({ name: 'event_id', type: 'varchar', length: 36 })
  eventId!: string;

  @Column({ type: 'simple-json' })
  envelope!: TransactionEvent;

  @Column({ type: 'simple-json', nullable: true })
  outcome!: TransactionOutcome | null;

  @Column({ type: 'boolean', default: false })
  acked!: boolean;
}
