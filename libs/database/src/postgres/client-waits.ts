import type { DatabaseWaits } from '../database-wait-settings';

/**
 * How much longer than the statement timeout the client waits for an answer before it gives up
 * by itself: the server's own timeout answers first, unless the server or the way to it is stalled.
 */
const CLIENT_MARGIN_MS = 1000;

/** What node-postgres takes of the waits, for a pool or a client (its config's own names). */
export interface ClientWaits {
  connectionTimeoutMillis: number;
  query_timeout: number;
  keepAlive: true;
  statement_timeout?: number;
  lock_timeout?: number;
}

/**
 * Every wait of a node-postgres connection bounded (docs/contract.md, "Every wait bounded"): a new
 * connection or a free one of the pool, and an answer from a server that stops answering (stopped,
 * cut off, stalled). On a direct connection the statement and lock timeouts are the session's own,
 * set at connect; through a pooler (`pooled`), which refuses them as startup parameters, they are
 * the role's defaults in the database (openPostgres) and set again in each transaction (beginOf).
 */
export function clientWaits(waits: DatabaseWaits, pooled: boolean): ClientWaits {
  return {
    connectionTimeoutMillis: waits.acquireTimeoutMs,
    query_timeout: waits.statementTimeoutMs + CLIENT_MARGIN_MS,
    keepAlive: true,
    ...(pooled ? {} : { statement_timeout: waits.statementTimeoutMs, lock_timeout: waits.lockTimeoutMs }),
  };
}
