import type { LeaseAdapter } from '../leased-queue/lease-adapters';
import { sqliteLeases } from '../sqlite/lease-statements';

/**
 * Processes share the table: a claim skips the rows another is claiming, and adopts only its
 * predecessor's. Its statements otherwise SQLite's as they are.
 */
export const postgresLeases: LeaseAdapter = {
  ...sqliteLeases,
  chosen: (choose) => `= ANY(ARRAY(${choose} FOR UPDATE SKIP LOCKED))`,
  adopts: 'predecessor',
};
