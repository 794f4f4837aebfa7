import { Injectable, type BeforeApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { RateLimitedError } from '@tps/domain';
import { ApiConfig } from '../config/api-config';
import { replicaLimiter, type WindowLimiter } from '../rate-limit/replica-limiter';

/**
 * Counts account creations per client address, across replicas: the one unsigned route that
 * writes, so the only budget it can be held to is the caller's address (the socket's, never a
 * forwarded header, which anyone can write).
 */
@Injectable()
export class AddressRateLimiter implements BeforeApplicationShutdown {
  private readonly window: WindowLimiter;

  constructor(config: ApiConfig, @InjectDataSource() dataSource: DataSource) {
    this.window = replicaLimiter(
      dataSource,
      'account-address',
      config.ACCOUNT_RATE_LIMIT_MAX,
      config.ACCOUNT_RATE_LIMIT_WINDOW_MS,
    );
  }

  /** Exact across replicas: account creations are rare, and each writes anyway. */
  async consume(address: string): Promise<void> {
    const taken = await this.window.takeExact(address);
    if (!taken.admitted) {
      throw new RateLimitedError(
        taken.retryAfterSeconds,
        'too many sandbox accounts created from this address',
      );
    }
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.window.stop();
  }
}
