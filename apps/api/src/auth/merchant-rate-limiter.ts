import { Injectable } from '@nestjs/common';
import { RateLimitedError } from '@tps/domain';
import { ApiConfig } from '../config/api-config';
import { SlidingWindowLimiter } from '../rate-limit/sliding-window-limiter';

/**
 * Counts each merchant's requests in a sliding window. It runs after authentication, so a
 * stranger cannot spend a merchant's budget by naming it.
 */
@Injectable()
export class MerchantRateLimiter {
  private readonly window: SlidingWindowLimiter;

  constructor(config: ApiConfig) {
    this.window = new SlidingWindowLimiter(config.RATE_LIMIT_MAX, config.RATE_LIMIT_WINDOW_MS);
  }

  consume(merchantId: string): void {
    const taken = this.window.take(merchantId);
    if (!taken.admitted) throw new RateLimitedError(taken.retryAfterSeconds);
  }
}
