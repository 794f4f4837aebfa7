import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, type Repository } from 'typeorm';
import { SerialWriter } from '@tps/database';
import type { PrintOrder } from '@tps/link';
import { TerminalPrintJobEntity } from './terminal-print-job.entity';

export type PrintJobChanges = Partial<
  Pick<TerminalPrintJobEntity, 'status' | 'errorCode' | 'errorMessage' | 'printedText' | 'updatedAt'>
>;

/** The print queues of the hosted terminals, in the simulator's own store. */
@Injectable()
export class PrintStore {
  constructor(
    private readonly writer: SerialWriter,
    @InjectRepository(TerminalPrintJobEntity) private readonly jobs: Repository<TerminalPrintJobEntity>,
  ) {}

  /** Queues a job as PENDING; a job already taken (the service asked again) is left as it is. */
  enqueue(serialNumber: string, order: PrintOrder, at: string): Promise<TerminalPrintJobEntity> {
    return this.writer.write(async (manager) => {
      const known = await manager.findOneBy(TerminalPrintJobEntity, { printJobId: order.printJobId });
      if (known !== null) return known;
      return manager.save(
        manager.create(TerminalPrintJobEntity, {
          printJobId: order.printJobId,
          serialNumber,
          order,
          status: 'PENDING',
          errorCode: null,
          errorMessage: null,
          printedText: null,
          version: 1,
          reportedVersion: 0,
          updatedAt: at,
        }),
        // Inside the writer's transaction: save() must not open one of its own.
        { transaction: false },
      );
    });
  }

  /** The oldest job the printer has not finished (one a restart interrupted comes first). */
  nextToPrint(serialNumber: string): Promise<TerminalPrintJobEntity | null> {
    return this.jobs.findOne({
      where: { serialNumber, status: In(['PENDING', 'IN_PROGRESS']) },
      order: { seq: 'ASC' },
    });
  }

  /**
   * Changes a job and counts the change, so that it is reported to the service. One statement:
   * the printer's reads share the connection and see a write as it goes, so a count bumped apart
   * from its change would be reported with the old status, and marked reported for good.
   */
  update(job: TerminalPrintJobEntity, changes: PrintJobChanges): Promise<TerminalPrintJobEntity> {
    return this.writer.write(async (manager) => {
      await manager
        .createQueryBuilder()
        .update(TerminalPrintJobEntity)
        .set({ ...changes, version: () => 'version + 1' })
        .where('seq = :seq', { seq: job.seq })
        .execute();
      return manager.findOneByOrFail(TerminalPrintJobEntity, { seq: job.seq });
    });
  }

  /** Jobs with changes the service has not acknowledged, oldest first. */
  unreported(serialNumber: string, limit: number): Promise<TerminalPrintJobEntity[]> {
    return this.jobs
      .createQueryBuilder('j')
      .where('j.serial_number = :serialNumber', { serialNumber })
      .andWhere('j.version > j.reported_version')
      .orderBy('j.seq', 'ASC')
      .take(limit)
      .getMany();
  }

  async markReported(job: TerminalPrintJobEntity): Promise<void> {
    await this.writer.write((manager) =>
      manager
        .createQueryBuilder()
        .update(TerminalPrintJobEntity)
        .set({ reportedVersion: job.version })
        .where('seq = :seq AND reported_version < :version', { seq: job.seq, version: job.version })
        .execute(),
    );
  }
}
