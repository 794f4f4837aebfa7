import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { finishesPrintJob, printJobPath } from '@tps/domain';
import type { PrintCallbackRecord } from '@tps/contracts';
import { anyOf, EntityTable, LeasedQueue, SerialWriter, sqlOf } from '@tps/database';
import type { PrintJobReport } from '@tps/link';
import { MerchantEntity } from '../auth/merchant.entity';
import { DeliveryOwner } from '../webhooks/delivery-owner';
import { secretsInForce } from '../webhooks/signing-secrets';
import { PrintJobEntity } from './print-job.entity';

const iso = (ms: number): string => new Date(ms).toISOString();

/**
 * The leases of the jobs' one webhook attempt: due once a job is finished with a webhook and no
 * recorded outcome. A job never leased was finished by a process of the version before leases,
 * which attempts it unleased (a rolling deploy, docs/contract.md "Rolling deploys"): it keeps no
 * due time of the service's own (its update time is the terminal's), so it is first noticed, given
 * a lease of no owner ending when that process, alive, would have made and recorded the attempt,
 * and taken once that has ended.
 */
const LEASED_CALLBACKS = {
  table: 'print_jobs',
  id: 'print_job_id',
  owner: 'callback_owner',
  leaseUntil: 'callback_lease_until',
  epoch: 'callback_lease_epoch',
  pending: "{row}.status IN ('COMPLETED', 'FAILED') AND {row}.webhook_url <> '' AND {row}.callback IS NULL",
  order: 'updated_at',
  // A claim takes the head of every merchant's callbacks before anyone's second, and no more of a
  // merchant than its cap leaves (contract, "Webhook delivery", Fairness).
  share: ['{row}.merchant_id'],
  unleased: 'notice' as const,
};

export type ReportResult =
  | { applied: false }
  /** `finished`: the job as stored, when this report finished it; its webhook is then due. */
  | { applied: true; finished: PrintJobEntity | null };

@Injectable()
export class PrintJobRepository {
  private readonly leases: LeasedQueue;
  private readonly table: EntityTable<PrintJobEntity>;
  private readonly merchants: EntityTable<MerchantEntity>;

  constructor(
    private readonly writer: SerialWriter,
    private readonly reads: DataSource,
    private readonly owner: DeliveryOwner,
  ) {
    this.leases = new LeasedQueue({ ...LEASED_CALLBACKS, shareCap: owner.merchantCap }, writer, reads, owner);
    this.table = new EntityTable(reads, PrintJobEntity);
    this.merchants = new EntityTable(reads, MerchantEntity);
  }

  /** A job of this merchant on this terminal; any other is as good as unknown. */
  findOnTerminal(
    merchantId: string,
    terminalSerial: string,
    printJobId: string,
  ): Promise<PrintJobEntity | null> {
    return this.table.findOne(sqlOf(this.reads.manager), { merchantId, terminalSerial, printJobId });
  }

  async insert(job: PrintJobEntity): Promise<void> {
    await this.writer.write((manager) => this.table.insert(sqlOf(manager), job));
  }

  /** Forgets a job the terminal never took, so that no one polls for a job that cannot print. */
  async remove(printJobId: string): Promise<void> {
    await this.writer.write((manager) =>
      this.table.delete(sqlOf(manager), { printJobId, status: 'PENDING' }),
    );
  }

  /**
   * Applies a terminal's report: the status moves edge by edge through the print lifecycle (a
   * report may stand for steps the link could not carry), and the rest is taken as reported.
   * The callback outcome is the service's own record, never the terminal's. A report that
   * finishes a job with a webhook leases its attempt to this process, which makes it at once.
   */
  applyReport(terminalSerial: string, report: PrintJobReport): Promise<ReportResult> {
    return this.writer.write(async (manager) => {
      const sql = sqlOf(manager);
      // Locked until the write commits (PostgreSQL): the status moves from the one read here.
      const job = await this.table.findOne(
        sql,
        { printJobId: report.printJobId, terminalSerial },
        { lock: true },
      );
      if (job === null) return { applied: false };
      const steps = printJobPath(job.status, report.status);
      const status = steps.length > 0 ? steps[steps.length - 1] : job.status;
      const changes = {
        status,
        updatedAt: report.updatedAt,
        errorCode: report.errorCode ?? null,
        errorMessage: report.errorMessage ?? null,
        printedText: report.printedText ?? null,
        ...(finishesPrintJob(job.status, status) && job.webhookUrl !== ''
          ? { callbackOwner: this.owner.id, callbackLeaseUntil: iso(Date.now() + this.owner.leaseMs) }
          : {}),
      };
      await this.table.update(sql, { printJobId: job.printJobId }, changes);
      return {
        applied: true,
        finished: finishesPrintJob(job.status, status) ? { ...job, ...changes } : null,
      };
    });
  }

  /**
   * The outcome of a job's one webhook attempt, written only while this process holds the
   * attempt's lease, under the epoch the job was claimed at: false when another process has taken
   * it, or this one claimed it again since (nothing written).
   */
  async recordCallback(job: PrintJobEntity, callback: PrintCallbackRecord): Promise<boolean> {
    const { printJobId, callbackLeaseEpoch } = job;
    const changed = await this.writer.write((manager) =>
      this.table.update(
        sqlOf(manager),
        { printJobId, callbackOwner: this.owner.id, callbackLeaseEpoch },
        { callback },
      ),
    );
    return changed > 0;
  }

  /** The jobs of these ids, oldest finished first. */
  private async jobsOf(rows: Array<{ print_job_id: string }>): Promise<PrintJobEntity[]> {
    if (rows.length === 0) return [];
    return this.table.find(
      sqlOf(this.reads.manager),
      { printJobId: anyOf(rows.map((row) => row.print_job_id)) },
      { orderBy: [['updatedAt', 'ASC']] },
    );
  }

  /**
   * Finished jobs whose webhook has no recorded outcome, which a stop or a crash cut, taken by the
   * process starting (LeaseAdapter.adopts), as for webhook deliveries.
   */
  async adoptCallbacks(): Promise<PrintJobEntity[]> {
    return this.jobsOf(await this.leases.adopt<{ print_job_id: string }>('print_job_id'));
  }

  /** Finished jobs whose webhook no live process holds: given back, or another's lease ended. */
  async claimCallbacks(now: number, until: number, limit: number): Promise<PrintJobEntity[]> {
    return this.jobsOf(await this.leases.claim<{ print_job_id: string }>(now, until, limit, 'print_job_id'));
  }

  /** Extends the leases of the attempts this process has under way; the ids it still holds. */
  renewCallbacks(until: number, printJobIds: string[]): Promise<string[]> {
    return this.leases.renew(until, printJobIds);
  }

  /** Gives back every webhook attempt this process holds and did not make, for another to make. */
  releaseCallbacks(): Promise<void> {
    return this.leases.release();
  }

  /** The merchant's webhook secrets in force now: they sign the attempt about to start. */
  async signingSecrets(merchantId: string, nowMs: number): Promise<string[]> {
    const [merchant] = await this.merchants.findColumns(
      sqlOf(this.reads.manager),
      ['webhookSecret', 'previousWebhookSecret', 'previousWebhookSecretUntil'],
      { merchantId },
    );
    if (merchant === undefined) return [];
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
