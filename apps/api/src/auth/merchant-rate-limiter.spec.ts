import 'reflect-metadata';
import type { DataSource } from 'typeorm';
import { RateLimitedError } from '@tps/domain';
import { validateApiConfig } from '../config/api-config';
import { MerchantRateLimiter } from './merchant-rate-limiter';

// Nest ships as ES modules, which Jest does not load; the decorators only matter to DI.
jest.mock('@nestjs/common', () => ({ Injectable: () => () => undefined }));
jest.mock('@nestjs/typeorm', () => ({ InjectDataSource: () => () => undefined }));

/** A SQLite data source as the limiter sees it: one process, so the limit is this process's. */
const SQLITE = { options: { type: 'sqlite' } } as DataSource;

describe('MerchantRateLimiter', () => {
  it('answers RATE-001 past the limit, with the seconds until the window frees a slot', () => {
    const limiter = new MerchantRateLimiter(
      validateApiConfig({ RATE_LIMIT_MAX: '2', RATE_LIMIT_WINDOW_MS: '60000' }),
      SQLITE,
    );
    limiter.consume('m1');
    limiter.consume('m1');
    limiter.consume('m2');
    let refused: unknown;
    try {
      limiter.consume('m1');
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(RateLimitedError);
    expect((refused as RateLimitedError).code).toBe('RATE-001');
    expect((refused as RateLimitedError).retryAfterSeconds).toBe(60);
  });

  it('keeps answering with 200,000 requests of one merchant in its window (a raised limit and a long window)', () => {
    // The throttler storage it used before threw a RangeError (an answer 500) from about 125,000.
    const limiter = new MerchantRateLimiter(
      validateApiConfig({ RATE_LIMIT_MAX: '1000000', RATE_LIMIT_WINDOW_MS: '600000' }),
      SQLITE,
    );
    for (let i = 0; i < 200_000; i++) limiter.consume('m');
  });

  it("holds each account to the quota of requests per second, apart from the others'", () => {
    const limiter = new MerchantRateLimiter(
      validateApiConfig({ HOSTED_MODE: 'true', QUOTA_REQUESTS_PER_SECOND: '3' }),
      SQLITE,
    );
    for (let i = 0; i < 3; i++) limiter.consume('busy');
    let refused: unknown;
    try {
      limiter.consume('busy');
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(RateLimitedError);
    expect((refused as RateLimitedError).message).toMatch(/quota of 3 requests per second/);
    expect((refused as RateLimitedError).retryAfterSeconds).toBe(1);
    expect(() => limiter.consume('quiet')).not.toThrow();
  });
});
