import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import type { PrintJobStatus } from '@tps/domain';
import type { PrintOrder } from '@tps/link';

/**
 * The terminal's print queue: every job it took, in the order it took them. `version` counts the
 * job's changes and `reportedVersion` the last one the service acknowledged, so what the service
 * has not heard yet survives a cut link or a restart.
 */
@Entity('terminal_print_jobs')
@Index(['serialNumber', 'status', 'seq'])
export class TerminalPrintJobEntity {
  @PrimaryGeneratedColumn({ type: 'integer' })
  seq!: number;

  @Index({ unique: true })
  @Column({ name: 'print_job_id', type: 'varchar', length: 36 })
  printJobId!: string;

  @Column({ name: 'serial_number', type: 'varchar', length: 32 })
  serialNumber!: string;

  @Column({ type: 'simple-json' })
  order!: PrintOrder;

  @Column({ type: 'varchar', length: 16 })
  status!: PrintJobStatus;

  @Column({ name: 'error_code', type: 'varchar', length: 16, nullable: true })
  errorCode!: string | null;

  @Column({ name: 'error_message', type: 'varchar', length: 255, nullable: true })
  errorMessage!: string | null;

  @Column({ name: 'printed_text', type: 'text', nullable: true })
  printedText!: string | null;

  @Column({ type: 'integer', default: 1 })
  version!: number;

  @Column({ name: 'reported_version', type: 'integer', default: 0 })
  reportedVersion!: number;

  @Column({ name: 'updated_at', type: 'varchar', length: 32 })
  updatedAt!: string;
}
