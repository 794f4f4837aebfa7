import { Injectable, type BeforeApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { RateLimitedError } from '@tps/domain';
import { accountQuotas } from '../config/account-quotas';
import { ApiConfig } from '../config/api-config';
import { replicaLimiter, type WindowLimiter } from '../rate-limit/replica-limiter';

/**
 * Counts each merchant's requests in a sliding window, across replicas, and holds it to the
 * account's quota of requests per second when there is one (contract, "Hosted mode"). It runs
 * after authentication, so a stranger cannot spend a merchant's budget by naming it. Neither
 * costs a database round trip per request: on PostgreSQL the replicas exchange their counts in
 * batches (SharedWindowLimiter).
 */
@Injectable()
export class MerchantRateLimiter implements BeforeApplicationShutdown {
  private readonly window: WindowLimiter;
  private readonly quota: { limiter: WindowLimiter; perSecond: number } | undefined;

  constructor(config: ApiConfig, @InjectDataSource() dataSource: DataSource) {
    this.window = replicaLimiter(dataSource, 'merchant', config.RATE_LIMIT_MAX, config.RATE_LIMIT_WINDOW_MS);
    const perSecond = accountQuotas(config).requestsPerSecond;
    this.quota =
      perSecond === undefined
        ? undefined
        : {
            limiter: replicaLimiter(dataSource, 'account-quota', perSecond, config.QUOTA_SECOND_MS),
            perSecond,
          };
  }

  consume(merchantId: string): void {
    const taken = this.window.take(merchantId);
    if (!taken.admitted) throw new RateLimitedError(taken.retryAfterSeconds);
    if (this.quota === undefined) return;
    const quota = this.quota.limiter.take(merchantId);
    if (!quota.admitted) {
      throw new RateLimitedError(
        quota.retryAfterSeconds,
        `over this account's quota of ${this.quota.perSecond} requests per second`,
      );
    }
  }

  async beforeApplicationShutdown(): Promise<void> {
    await Promise.all([this.window.stop(), this.quota?.limiter.stop()]);
  }
}
