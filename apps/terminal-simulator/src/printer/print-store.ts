import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { EntityTable, SerialWriter, portsOf, sqlOf, type PrintQueue, type Sql } from '@tps/database';
import type { PrintJobStatus } from '@tps/domain';
import type { PrintOrder } from '@tps/link';
import { queuedPrintJob } from './queued-print-job';
import { TerminalPrintJobEntity } from './terminal-print-job.entity';

export type PrintJobChanges = Partial<
  Pick<TerminalPrintJobEntity, 'status' | 'errorCode' | 'errorMessage' | 'printedText' | 'updatedAt'>
>;

/** The jobs the printer has not finished: one a restart interrupted, and those waiting. */
const TO_PRINT: PrintJobStatus[] = ['PENDING', 'IN_PROGRESS'];

/** The print queues of the hosted terminals, in the simulator's own store. */
@Injectable()
export class PrintStore {
  private readonly jobs: EntityTable<TerminalPrintJobEntity>;
  private readonly queue: PrintQueue<TerminalPrintJobEntity>;

  constructor(
    private readonly writer: SerialWriter,
    dataSource: DataSource,
  ) {
    this.jobs = new EntityTable(dataSource, TerminalPrintJobEntity);
    this.queue = portsOf(dataSource).printQueue(dataSource, TerminalPrintJobEntity);
  }

  /** Queues a job as PENDING; a job already taken (the service asked again) is left as it is. */
  enqueue(serialNumber: string, order: PrintOrder, at: string): Promise<TerminalPrintJobEntity> {
    return this.writer.write(async (manager) => {
      const sql = sqlOf(manager);
      const known = await this.jobs.findOne(sql, { printJobId: order.printJobId });
      if (known !== null) return known;
      await this.jobs.insert(sql, queuedPrintJob(serialNumber, order, at));
      return this.stored(sql, { printJobId: order.printJobId });
    });
  }

  /** The oldest job the printer has not finished (one a restart interrupted comes first). */
  nextToPrint(serialNumber: string): Promise<TerminalPrintJobEntity | null> {
    return this.queue.oldestIn(serialNumber, TO_PRINT);
  }

  /**
   * Changes a job and counts the change, so that it is reported to the service. One statement:
   * the printer's reads share the connection and see a write as it goes, so a count bumped apart
   * from its change would be reported with the old status, and marked reported for good.
   */
  update(job: TerminalPrintJobEntity, changes: PrintJobChanges): Promise<TerminalPrintJobEntity> {
    return this.writer.write(async (manager) => {
      await this.queue.change(manager, job.seq, changes);
      return this.stored(sqlOf(manager), { seq: job.seq });
    });
  }

  /** Jobs with changes the service has not acknowledged, oldest first. */
  unreported(serialNumber: string, limit: number): Promise<TerminalPrintJobEntity[]> {
    return this.queue.unreported(serialNumber, limit);
  }

  async markReported(job: TerminalPrintJobEntity): Promise<void> {
    await this.writer.write((manager) => this.queue.markReported(manager, job.seq, job.version));
  }

  /** The job, which the write under way has just stored or changed. */
  private async stored(
    sql: Sql,
    where: Pick<TerminalPrintJobEntity, 'printJobId'> | Pick<TerminalPrintJobEntity, 'seq'>,
  ): Promise<TerminalPrintJobEntity> {
    const job = await this.jobs.findOne(sql, where);
    if (job === null) throw new Error(`print job ${JSON.stringify(where)} is not stored`);
    return job;
  }
}
