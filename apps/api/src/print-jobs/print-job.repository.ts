import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, IsNull, Not, type Repository } from 'typeorm';
import { finishesPrintJob, printJobPath } from '@tps/domain';
import type { PrintCallbackRecord } from '@tps/contracts';
import { SerialWriter } from '@tps/database';
import type { PrintJobReport } from '@tps/link';
import { MerchantEntity } from '../auth/merchant.entity';
import { secretsInForce } from '../webhooks/signing-secrets';
import { PrintJobEntity } from './print-job.entity';

export type ReportResult =
  | { applied: false }
  /** `finished`: the job as stored, when this report finished it; its webhook is then due. */
  | { applied: true; finished: PrintJobEntity | null };

@Injectable()
export class PrintJobRepository {
  constructor(
    private readonly writer: SerialWriter,
    @InjectRepository(PrintJobEntity) private readonly jobs: Repository<PrintJobEntity>,
  ) {}

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
   * The callback outcome is the service's own record, never the terminal's.
   */
  applyReport(terminalSerial: string, report: PrintJobReport): Promise<ReportResult> {
    return this.writer.write(async (manager) => {
      const job = await manager.findOneBy(PrintJobEntity, { printJobId: report.printJobId, terminalSerial });
      if (job === null) return { applied: false };
      const steps = printJobPath(job.status, report.status);
      const status = steps.length > 0 ? steps[steps.length - 1] : job.status;
      const changes = {
        status,
        updatedAt: report.updatedAt,
        errorCode: report.errorCode ?? null,
        errorMessage: report.errorMessage ?? null,
        printedText: report.printedText ?? null,
      };
      await manager.update(PrintJobEntity, { printJobId: job.printJobId }, changes);
      return {
        applied: true,
        finished: finishesPrintJob(job.status, status) ? { ...job, ...changes } : null,
      };
    });
  }

  /** The outcome of a job's one webhook attempt. */
  async recordCallback(printJobId: string, callback: PrintCallbackRecord): Promise<void> {
    await this.writer.write((manager) => manager.update(PrintJobEntity, { printJobId }, { callback }));
  }

  /**
   * Finished jobs whose webhook has no recorded outcome: a stop or a crash of the service came
   * between storing the result and the end of the attempt.
   */
  unsentCallbacks(): Promise<PrintJobEntity[]> {
    return this.jobs.find({
      where: { status: In(['COMPLETED', 'FAILED']), webhookUrl: Not(''), callback: IsNull() },
      order: { updatedAt: 'ASC' },
    });
  }

  /** The merchant's webhook secrets in force now: they sign the attempt about to start. */
  async signingSecrets(merchantId: string, nowMs: number): Promise<string[]> {
    const merchant = await this.jobs.manager.findOne(MerchantEntity, {
      select: {
        merchantId: true,
        webhookSecret: true,
        previousWebhookSecret: true,
        previousWebhookSecretUntil: true,
      },
      where: { merchantId },
    });
    if (merchant === null) return [];
    return secretsInForce(
      {
        current: merchant.webhookSecret,
        previous: merchant.previousWebhookSecret,
        previousUntil: merchant.previousWebhookSecretUntil,
      },
      nowMs,
    );
  }
}
