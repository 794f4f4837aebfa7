import { Injectable } from '@nestjs/common';
import { RateLimitedError } from '@tps/domain';
import { ApiConfig } from '../config/api-config';
import { SlidingWindowLimiter } from '../rate-limit/sliding-window-limiter';

/**
 * Counts account creations per client address: the one unsigned route that writes, so the only
 * budget it can be held to is the caller's address (the socket's, never a forwarded header,
 * which anyone can write).
 */
@Injectable()
export class AddressRateLimiter {
  private readonly window: SlidingWindowLimiter;

  constructor(config: ApiConfig) {
    this.window = new SlidingWindowLimiter(
      config.ACCOUNT_RATE_LIMIT_MAX,
      config.ACCOUNT_RATE_LIMIT_WINDOW_MS,
    );
  }

  consume(address: string): void {
    const taken = this.window.take(address);
    if (!taken.admitted) {
      throw new RateLimitedError(
        taken.retryAfterSeconds,
        'too many sandbox accounts created from this address',
      );
    }
  }
}
