import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, type Repository } from 'typeorm';
import { finishesPrintJob, printJobPath } from '@tps/domain';
import type { PrintCallbackRecord } from '@tps/contracts';
import { SerialWriter, sqlOf } from '@tps/database';
import type { PrintJobReport } from '@tps/link';
import { MerchantEntity } from '../auth/merchant.entity';
import { DeliveryOwner } from '../webhooks/delivery-owner';
import { secretsInForce } from '../webhooks/signing-secrets';
import { PrintJobEntity } from './print-job.entity';

const iso = (ms: number): string => new Date(ms).toISOString();

/** The lease end of an attempt given back: before any time, so any process claims it at once. */
const GIVEN_BACK = iso(0);

/** Finished jobs whose webhook is due and has no recorded outcome. */
const CALLBACK_DUE = "status IN ('COMPLETED', 'FAILED') AND webhook_url <> '' AND callback IS NULL";

export type ReportResult =
  | { applied: false }
  /** `finished`: the job as stored, when this report finished it; its webhook is then due. */
  | { applied: true; finished: PrintJobEntity | null };

@Injectable()
export class PrintJobRepository {
  constructor(
    private readonly writer: SerialWriter,
    @InjectRepository(PrintJobEntity) private readonly jobs: Repository<PrintJobEntity>,
    private readonly owner: DeliveryOwner,
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
   * The callback outcome is the service's own record, never the terminal's. A report that
   * finishes a job with a webhook leases its attempt to this process, which makes it at once.
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
        ...(finishesPrintJob(job.status, status) && job.webhookUrl !== ''
          ? { callbackOwner: this.owner.id, callbackLeaseUntil: iso(Date.now() + this.owner.leaseMs) }
          : {}),
      };
      await manager.update(PrintJobEntity, { printJobId: job.printJobId }, changes);
      return {
        applied: true,
        finished: finishesPrintJob(job.status, status) ? { ...job, ...changes } : null,
      };
    });
  }

  /**
   * The outcome of a job's one webhook attempt, written only while this process holds the
   * attempt's lease: false when another process has taken it (nothing written).
   */
  async recordCallback(printJobId: string, callback: PrintCallbackRecord): Promise<boolean> {
    const result = await this.writer.write((manager) =>
      manager.update(PrintJobEntity, { printJobId, callbackOwner: this.owner.id }, { callback }),
    );
    return (result.affected ?? 0) > 0;
  }

  private get onSqlite(): boolean {
    return this.jobs.manager.connection.driver.options.type === 'sqlite';
  }

  /** The jobs of these ids, oldest finished first. */
  private async jobsOf(rows: Array<{ print_job_id: string }>): Promise<PrintJobEntity[]> {
    if (rows.length === 0) return [];
    return this.jobs.find({
      where: { printJobId: In(rows.map((row) => row.print_job_id)) },
      order: { updatedAt: 'ASC' },
    });
  }

  /**
   * Finished jobs whose webhook has no recorded outcome, which a stop or a crash cut, taken by the
   * process starting: on SQLite (one process per file) every one; on PostgreSQL its replica's
   * predecessor's (same REPLICA_ID), as for webhook deliveries.
   */
  async adoptCallbacks(): Promise<PrintJobEntity[]> {
    const until = iso(Date.now() + this.owner.leaseMs);
    const rows = await this.writer.write((manager) =>
      this.onSqlite
        ? sqlOf(manager).all<{ print_job_id: string }>(
            `UPDATE print_jobs SET callback_owner = ?, callback_lease_until = ? WHERE ${CALLBACK_DUE} RETURNING print_job_id`,
            [this.owner.id, until],
          )
        : sqlOf(manager).all<{ print_job_id: string }>(
            'UPDATE print_jobs SET callback_owner = ?, callback_lease_until = ? ' +
              `WHERE ${CALLBACK_DUE} AND substr(callback_owner, 1, ?) = ? RETURNING print_job_id`,
            [this.owner.id, until, this.owner.replica.length, this.owner.replica],
          ),
    );
    return this.jobsOf(rows);
  }

  /**
   * Finished jobs whose webhook no live process holds: given back, or another's lease ended. A job
   * never leased was finished by a process of the version before leases, which attempts it
   * unleased (a rolling deploy, docs/contract.md "Rolling deploys"): it is first noticed (given a
   * lease of no owner, ending when that process, alive, would have made and recorded the attempt),
   * and taken once that has ended.
   */
  async claimCallbacks(now: number, until: number, limit: number): Promise<PrintJobEntity[]> {
    const claimable =
      `${CALLBACK_DUE} AND callback_lease_until < ? AND ` + '(callback_owner IS NULL OR callback_owner <> ?)';
    const unnoticed = `${CALLBACK_DUE} AND callback_lease_until IS NULL`;
    // A look first, on the reading connection: no write while nothing is due.
    const [any] = await sqlOf(this.jobs.manager).all(
      `SELECT 1 AS claimable FROM print_jobs WHERE (${claimable}) OR (${unnoticed}) LIMIT 1`,
      [iso(now), this.owner.id],
    );
    if (any === undefined) return [];
    const lock = this.onSqlite ? '' : ' FOR UPDATE SKIP LOCKED';
    const rows = await this.writer.write(async (manager) => {
      const sql = sqlOf(manager);
      await sql.run(`UPDATE print_jobs SET callback_lease_until = ? WHERE ${unnoticed}`, [
        iso(now + this.owner.unleasedAfterMs),
      ]);
      return sql.all<{ print_job_id: string }>(
        'UPDATE print_jobs SET callback_owner = ?, callback_lease_until = ? WHERE print_job_id IN ' +
          `(SELECT print_job_id FROM print_jobs WHERE ${claimable} ORDER BY updated_at LIMIT ?${lock}) ` +
          'RETURNING print_job_id',
        [this.owner.id, iso(until), iso(now), this.owner.id, limit],
      );
    });
    return this.jobsOf(rows);
  }

  /** Extends the leases of the attempts this process has under way; the ids it still holds. */
  async renewCallbacks(until: number, printJobIds: string[]): Promise<string[]> {
    if (printJobIds.length === 0) return [];
    const rows = await this.writer.write((manager) =>
      sqlOf(manager).all<{ print_job_id: string }>(
        `UPDATE print_jobs SET callback_lease_until = ? WHERE callback_owner = ? AND print_job_id IN (${printJobIds
          .map(() => '?')
          .join(', ')}) RETURNING print_job_id`,
        [iso(until), this.owner.id, ...printJobIds],
      ),
    );
    return rows.map((row) => row.print_job_id);
  }

  /**
   * Gives back every webhook attempt this process holds and did not make, for another to make: a
   * lease of no owner that ended before any time, so any process claims it at once.
   */
  async releaseCallbacks(): Promise<void> {
    await this.writer.write((manager) =>
      sqlOf(manager).run(
        `UPDATE print_jobs SET callback_owner = NULL, callback_lease_until = ? WHERE callback_owner = ? AND ${CALLBACK_DUE}`,
        [GIVEN_BACK, this.owner.id],
      ),
    );
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
