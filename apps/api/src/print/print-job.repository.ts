import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import type { DataSource, Repository } from 'typeorm';
import { printJobPath } from '@tps/domain';
import { SerialWriter } from '@tps/database';
import type { PrintJobReport } from '@tps/link';
import { PrintJobEntity } from './print-job.entity';

export type ReportResult = 'applied' | 'unknown';

@Injectable()
export class PrintJobRepository {
  private readonly writer: SerialWriter;

  constructor(
    @InjectDataSource() dataSource: DataSource,
    @InjectRepository(PrintJobEntity) private readonly jobs: Repository<PrintJobEntity>,
  ) {
    this.writer = new SerialWriter(dataSource);
  }

  /** A job of this merchant on this terminal; any other is as good as unknown. */
  findOnTerminal(
    merchantId: string,
    terminalSerial: string,
    printJobId: string,
  ): Promise<PrintJobEntity | null> {
    return this.jobs.findOneBy({ merchantId, terminalSerial, printJobId });
  }

  async insert(job: PrintJobEntity): Promise<void> {
    await this.writer.write((manager) => manager.insert(PrintJobEntity, job));
  }

  /** Forgets a job the terminal never took, so that no one polls for a job that cannot print. */
  async remove(printJobId: string): Promise<void> {
    await this.writer.write((manager) => manager.delete(PrintJobEntity, { printJobId, status: 'PENDING' }));
  }

  /**
   * Applies a terminal's report: the status moves edge by edge through the print lifecycle (a
   * report may stand for steps the link could not carry), and the rest is taken as reported.
   */
  applyReport(terminalSerial: string, report: PrintJobReport): Promise<ReportResult> {
    return this.writer.write(async (manager) => {
      const job = await manager.findOneBy(PrintJobEntity, { printJobId: report.printJobId, terminalSerial });
      if (job === null) return 'unknown';
      const steps = printJobPath(job.status, report.status);
      const status = steps.length > 0 ? steps[steps.length - 1] : job.status;
      await manager.update(
        PrintJobEntity,
        { printJobId: job.printJobId },
        {
          status,
          updatedAt: report.updatedAt,
          errorCode: report.errorCode ?? null,
          errorMessage: report.errorMessage ?? null,
          printedText: report.printedText ?? null,
          callback: report.callback ?? null,
        },
      );
      return 'applied';
    });
  }
}
