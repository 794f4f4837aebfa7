import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { ThrottlerStorageService } from '@nestjs/throttler';
import { RateLimitedError } from '@tps/domain';
import { ApiConfig } from '../config/api-config';

/**
 * Counts each merchant's requests in a sliding window (the throttler library's storage). It runs
 * after authentication, so a stranger cannot spend a merchant's budget by naming it.
 */
@Injectable()
export class MerchantRateLimiter implements OnApplicationShutdown {
  private readonly storage = new ThrottlerStorageService();

  constructor(private readonly config: ApiConfig) {}

  async consume(merchantId: string): Promise<void> {
    const { RATE_LIMIT_MAX: limit, RATE_LIMIT_WINDOW_MS: window } = this.config;
    const record = await this.storage.increment(merchantId, window, limit, 0, 'merchant');
    if (record.totalHits > limit) throw new RateLimitedError(Math.max(1, record.timeToExpire));
  }

  onApplicationShutdown(): void {
    this.storage.onApplicationShutdown();
  }
}
