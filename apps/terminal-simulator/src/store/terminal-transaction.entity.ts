import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { LifecycleStatus } from '@tps/domain';
import type { OperationOrder, TransactionOutcome } from '@tps/link';

/** The terminal's own record of every transaction it ran. */
@Entity('terminal_transactions')
@Index(['serialNumber', 'createdAt'])
export class TerminalTransactionEntity {
  /** merchant_id + ":" + client_transaction_id */
  @PrimaryColumn({ type: 'varchar', length: 120 })
  key!: string;

  @Column({ name: 'serial_number', type: 'varchar', length: 32 })
  serialNumber!: string;

  @Column({ type: 'simple-json' })
  order!: OperationOrder;

  @Column({ type: 'varchar', length: 24 })
  status!: LifecycleStatus;

  @Column({ type: 'simple-json', nullable: true })
  outcome!: TransactionOutcome | null;

  @Column({ name: 'created_at', type: 'varchar', length: 32 })
  createdAt!: string;
}
