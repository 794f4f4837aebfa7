import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { ThrottlerStorageService } from '@nestjs/throttler';
import { RateLimitedError } from '@tps/domain';
import { ApiConfig } from '../config/api-config';

/**
 * Counts account creations per client address: the one unsigned route that writes, so the only
 * budget it can be held to is the caller's address (the socket's, never a forwarded header,
 * which anyone can write).
 */
@Injectable()
export class AddressRateLimiter implements OnApplicationShutdown {
  private readonly storage = new ThrottlerStorageService();

  constructor(private readonly config: ApiConfig) {}

  async consume(address: string): Promise<void> {
    const { ACCOUNT_RATE_LIMIT_MAX: limit, ACCOUNT_RATE_LIMIT_WINDOW_MS: window } = this.config;
    const record = await this.storage.increment(address, window, limit, 0, 'accounts');
    if (record.totalHits > limit) {
      throw new RateLimitedError(
        Math.max(1, record.timeToExpire),
        'too many sandbox accounts created from this address',
      );
    }
  }

  onApplicationShutdown(): void {
    this.storage.onApplicationShutdown();
  }
}
