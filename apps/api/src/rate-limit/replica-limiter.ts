import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { storeOf } from '@tps/database';
import { PostgresAdmissionExchange } from './postgres/postgres-admission-exchange';
import { SharedWindowLimiter } from './shared-window-limiter';
import { SlidingWindowLimiter } from './sliding-window-limiter';

/** How often a replica that admits tells the others, and learns theirs. */
export const RATE_LIMIT_SYNC_MS = 100;

/** This process among the replicas sharing the limits' counts. */
const REPLICA = randomUUID();

type Taken = { admitted: true } | { admitted: false; retryAfterSeconds: number };

/** What a limit needs: admit or refuse a key (from counts a moment old, or exact), and stop. */
export interface WindowLimiter {
  take(key: string): Taken;
  takeExact(key: string): Promise<Taken>;
  stop(): Promise<void>;
}

/**
 * A limit as the store allows: held between all replicas on PostgreSQL (any number of them may
 * share the database), in this process alone on SQLite (one process owns the file).
 */
export function replicaLimiter(
  dataSource: DataSource,
  scope: string,
  limit: number,
  windowMs: number,
): WindowLimiter {
  if (storeOf(dataSource.options).shared) {
    return new SharedWindowLimiter(limit, windowMs, {
      exchange: new PostgresAdmissionExchange(dataSource, scope),
      replica: REPLICA,
      syncMs: RATE_LIMIT_SYNC_MS,
    });
  }
  const local = new SlidingWindowLimiter(limit, windowMs);
  return {
    take: (key) => local.take(key),
    takeExact: (key) => Promise.resolve(local.take(key)),
    stop: () => Promise.resolve(),
  };
}
