import { Injectable, Logger } from '@nestjs/common';
import { MerchantActivity } from '@tps/database';
import { ApiConfig } from '../config/api-config';
import type { MerchantEntity } from './merchant.entity';

/** Sandbox accounts are the merchants `POST /sandbox/accounts` makes (contract §14). */
export const SANDBOX_ACCOUNT_PREFIX = 'acct_';
/** A stamp is written at most once an hour (a tenth of the idle time, if less): idleness is counted in days. */
const STAMP_EVERY_MS = 3_600_000;

/**
 * When each sandbox account last made a signed request, in real time (contract, "Retention"): a
 * sandbox clock moved forward does not make an account idle, so a CI job that moves it and goes on
 * never loses its account on the way.
 */
@Injectable()
export class AccountActivity {
  private readonly logger = new Logger('Retention');
  /** The last stamp this process wrote for each account. */
  private readonly stamped = new Map<string, number>();

  constructor(
    private readonly config: ApiConfig,
    private readonly activity: MerchantActivity,
  ) {}

  /** Stamps the account active now, unless this process did so lately. */
  async touch(merchant: MerchantEntity): Promise<void> {
    if (this.config.PROFILE !== 'sandbox' || !merchant.merchantId.startsWith(SANDBOX_ACCOUNT_PREFIX)) return;
    const now = Date.now();
    const every = Math.min(STAMP_EVERY_MS, (this.config.ACCOUNT_IDLE_DAYS * 86_400_000) / 10);
    const last = this.stamped.get(merchant.merchantId);
    if (last !== undefined && now - last < every) return;
    this.stamped.set(merchant.merchantId, now);
    try {
      await this.activity.stamp(merchant.merchantId, now);
    } catch (error) {
      // The request goes on: a stamp missed is written by the next request that finds none.
      this.stamped.delete(merchant.merchantId);
      this.logger.warn(`activity of ${merchant.merchantId} not stamped: ${(error as Error).message}`);
    }
  }

  forget(merchantId: string): void {
    this.stamped.delete(merchantId);
  }
}
