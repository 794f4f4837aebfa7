import { setTimeout as sleep } from 'node:timers/promises';
import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { PeriodicTask } from '@tps/background';
import { RetentionRows, type SweptMerchant } from '@tps/database';
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
    private readonly rows: RetentionRows,
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
    await this.rows.startIdleTime(SANDBOX_ACCOUNT_PREFIX, now);
    let after = '';
    for (;;) {
      const page = await this.rows.merchants(after, MERCHANT_PAGE);
      for (const merchant of page) {
        if (this.task.stopping) return;
        if (this.isIdleAccount(merchant, now)) await this.removeAccount(merchant.merchantId);
        else {
          const merchantNow = now + merchant.clockOffsetSeconds * 1000;
          await this.purge(merchant.merchantId, merchantNow - this.config.RETENTION_DAYS * DAY_MS);
        }
      }
      if (page.length < MERCHANT_PAGE) return;
      after = page[page.length - 1].merchantId;
    }
  }

  /** Idle in real time: no signed request for ACCOUNT_IDLE_DAYS (the account's creation counts as one). */
  private isIdleAccount(merchant: SweptMerchant, now: number): boolean {
    if (this.config.PROFILE !== 'sandbox' || !merchant.merchantId.startsWith(SANDBOX_ACCOUNT_PREFIX))
      return false;
    if (merchant.lastActiveAtMs === null) return false;
    return now - merchant.lastActiveAtMs > this.config.ACCOUNT_IDLE_DAYS * DAY_MS;
  }

  /** Removes the merchant's transactions made before `beforeMs` (its clock) and print jobs, in batches. */
  private async purge(merchantId: string, beforeMs: number): Promise<number> {
    const batch = this.config.RETENTION_BATCH;
    let removed = 0;
    for (;;) {
      const taken = await this.rows.removeBatch(merchantId, beforeMs, batch);
      removed += taken;
      if (taken < batch || this.task.stopping) return removed;
      await sleep(BATCH_PAUSE_MS);
    }
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
