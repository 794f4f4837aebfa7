import { Injectable, type BeforeApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { RateLimitedError } from '@tps/domain';
import { ApiConfig } from '../config/api-config';
import { replicaLimiter, type WindowLimiter } from '../rate-limit/replica-limiter';

/**
 * Counts each merchant's requests in a sliding window, across replicas. It runs after
 * authentication, so a stranger cannot spend a merchant's budget by naming it.
 */
@Injectable()
export class MerchantRateLimiter implements BeforeApplicationShutdown {
  private readonly window: WindowLimiter;

  constructor(config: ApiConfig, @InjectDataSource() dataSource: DataSource) {
    this.window = replicaLimiter(dataSource, 'merchant', config.RATE_LIMIT_MAX, config.RATE_LIMIT_WINDOW_MS);
  }

  consume(merchantId: string): void {
    const taken = this.window.take(merchantId);
    if (!taken.admitted) throw new RateLimitedError(taken.retryAfterSeconds);
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.window.stop();
  }
}
