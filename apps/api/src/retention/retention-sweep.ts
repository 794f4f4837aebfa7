import { setTimeout as sleep } from 'node:timers/promises';
import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { PeriodicTask } from '@tps/background';
import { DataSource } from 'typeorm';
import { SerialWriter, sqlOf, type Sql } from '@tps/database';
import { SandboxAccounts } from '../accounts/sandbox-accounts';
import { AccountActivity, SANDBOX_ACCOUNT_PREFIX } from '../auth/account-activity';
import { MerchantRepository } from '../auth/merchant.repository';
import { BackgroundTasks } from '../metrics/background-tasks';
import { ApiConfig } from '../config/api-config';
import { MaintenanceLease } from './maintenance-lease';

const DAY_MS = 86_400_000;
/** Merchants read per page of a sweep. */
const MERCHANT_PAGE = 200;
/** The pause between two writes of a sweep, leaving the write queue to the requests. */
const BATCH_PAUSE_MS = 10;
/** The lease lasts two sweeps, and at least a minute: a replica that stopped hands over after it. */
const MIN_LEASE_MS = 60_000;
/** Past the end of any clock: everything an account did, when the account goes. */
const EVERYTHING_MS = 8.64e15;

interface MerchantPageRow {
  merchant_id: string;
  clock_offset_seconds: number;
  last_active_at_ms: number | string | null;
}

/**
 * Retention (contract, "Retention"). Every RETENTION_SWEEP_INTERVAL_MS the replica holding the
 * lease removes, merchant by merchant and on each merchant's own clock (§8): transactions older
 * than RETENTION_DAYS with their events, webhook deliveries and attempts, and print jobs, a batch
 * of RETENTION_BATCH per write; and, in the sandbox, accounts idle for ACCOUNT_IDLE_DAYS (real time), as
 * `DELETE /sandbox/accounts/me` would (their activity first, in the same small batches).
 */
@Injectable()
export class RetentionSweep implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Retention');
  private readonly task: PeriodicTask;

  constructor(
    private readonly config: ApiConfig,
    private readonly reads: DataSource,
    private readonly writer: SerialWriter,
    private readonly lease: MaintenanceLease,
    private readonly activity: AccountActivity,
    private readonly merchants: MerchantRepository,
    private readonly modules: ModuleRef,
    tasks: BackgroundTasks,
  ) {
    const leaseMs = Math.max(MIN_LEASE_MS, 2 * config.RETENTION_SWEEP_INTERVAL_MS);
    // A storage failure midway: the next sweep goes on from what is left.
    this.task = tasks.every({
      name: 'retention',
      everyMs: config.RETENTION_SWEEP_INTERVAL_MS,
      held: () => this.lease.claim('retention', leaseMs),
      run: () => this.sweepMerchants(),
    });
  }

  onApplicationBootstrap(): void {
    this.task.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.task.stop();
  }

  private async sweepMerchants(): Promise<void> {
    const now = Date.now();
    // Accounts made before activity was kept start their idle time now.
    await this.writer.write((manager) =>
      sqlOf(manager).run(
        'UPDATE merchants SET last_active_at_ms = ? WHERE last_active_at_ms IS NULL AND substr(merchant_id, 1, ?) = ?',
        [now, SANDBOX_ACCOUNT_PREFIX.length, SANDBOX_ACCOUNT_PREFIX],
      ),
    );
    let after = '';
    for (;;) {
      const page = await sqlOf(this.reads.manager).all<MerchantPageRow>(
        'SELECT merchant_id, clock_offset_seconds, last_active_at_ms FROM merchants ' +
          'WHERE merchant_id > ? ORDER BY merchant_id LIMIT ?',
        [after, MERCHANT_PAGE],
      );
      for (const row of page) {
        if (this.task.stopping) return;
        if (this.isIdleAccount(row, now)) await this.removeAccount(row.merchant_id);
        else {
          const merchantNow = now + Number(row.clock_offset_seconds) * 1000;
          await this.purge(row.merchant_id, merchantNow - this.config.RETENTION_DAYS * DAY_MS);
        }
      }
      if (page.length < MERCHANT_PAGE) return;
      after = page[page.length - 1].merchant_id;
    }
  }

  /** Idle in real time: no signed request for ACCOUNT_IDLE_DAYS (the account's creation counts as one). */
  private isIdleAccount(row: MerchantPageRow, now: number): boolean {
    if (this.config.PROFILE !== 'sandbox' || !row.merchant_id.startsWith(SANDBOX_ACCOUNT_PREFIX))
      return false;
    if (row.last_active_at_ms === null) return false;
    return now - Number(row.last_active_at_ms) > this.config.ACCOUNT_IDLE_DAYS * DAY_MS;
  }

  /** Removes the merchant's transactions made before `beforeMs` (its clock) and print jobs, in batches. */
  private async purge(merchantId: string, beforeMs: number): Promise<number> {
    const batch = this.config.RETENTION_BATCH;
    let removed = 0;
    for (;;) {
      const taken = await this.writer.write((manager) =>
        this.purgeBatch(sqlOf(manager), merchantId, beforeMs),
      );
      removed += taken;
      if (taken < batch || this.task.stopping) return removed;
      await sleep(BATCH_PAUSE_MS);
    }
  }

  /** One write: at most RETENTION_BATCH transactions with what hangs on them, and as many print jobs. */
  private async purgeBatch(sql: Sql, merchantId: string, beforeMs: number): Promise<number> {
    const batch = this.config.RETENTION_BATCH;
    const ids = (
      await sql.all<{ id: string }>(
        'SELECT id FROM transactions WHERE merchant_id = ? AND created_at_ms < ? LIMIT ?',
        [merchantId, beforeMs, batch],
      )
    ).map((row) => row.id);
    const jobs = (
      await sql.all<{ id: string }>(
        'SELECT print_job_id AS id FROM print_jobs WHERE merchant_id = ? AND created_at < ? LIMIT ?',
        [merchantId, new Date(Math.min(beforeMs, 253402300799999)).toISOString(), batch],
      )
    ).map((row) => row.id);
    if (ids.length > 0) {
      // Always `batch` places, the last id repeated: one statement text per batch size, prepared once.
      const list = Array.from({ length: batch }, (_, i) => ids[Math.min(i, ids.length - 1)]);
      const places = list.map(() => '?').join(', ');
      await sql.run(
        'DELETE FROM webhook_delivery_attempts WHERE delivery_id IN ' +
          `(SELECT id FROM webhook_deliveries WHERE transaction_id IN (${places}))`,
        list,
      );
      await sql.run(`DELETE FROM webhook_deliveries WHERE transaction_id IN (${places})`, list);
      await sql.run(`DELETE FROM transaction_events WHERE transaction_id IN (${places})`, list);
      await sql.run(`DELETE FROM transactions WHERE id IN (${places})`, list);
    }
    if (jobs.length > 0) {
      const list = Array.from({ length: batch }, (_, i) => jobs[Math.min(i, jobs.length - 1)]);
      await sql.run(`DELETE FROM print_jobs WHERE print_job_id IN (${list.map(() => '?').join(', ')})`, list);
    }
    return Math.max(ids.length, jobs.length);
  }

  /** Without opening its secrets: they may be sealed under a key this process lacks. */
  private async removeAccount(merchantId: string): Promise<void> {
    if (!(await this.merchants.exists(merchantId))) return;
    await this.purge(merchantId, EVERYTHING_MS);
    if (this.task.stopping) return;
    await this.modules.get(SandboxAccounts, { strict: false }).remove(merchantId);
    this.activity.forget(merchantId);
    this.logger.log(`sandbox account ${merchantId} deleted: idle for ${this.config.ACCOUNT_IDLE_DAYS} days`);
  }
}
