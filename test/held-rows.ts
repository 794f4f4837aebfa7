import { randomUUID } from 'node:crypto';
import type { Stack } from '@tps/testing';

/** A process that held rows and stopped: the leases tests give back, all at once. */
export const STOPPED = 'stopped-replica/000000000001';
/** How long a held row's lease lasts unless given back: longer than any test. */
const HELD_FOR_MS = 3_600_000;

const iso = (ms: number): string => new Date(ms).toISOString();

/**
 * A pending webhook delivery of a transaction of its own, due at `due`, leased to `owner` until
 * `until` (an hour from now unless said), as insertDeliveries writes it.
 */
export function heldDelivery(
  merchantId: string,
  url: string,
  due: number,
  owner = STOPPED,
  until = Date.now() + HELD_FOR_MS,
): unknown[] {
  const event = randomUUID();
  const body = JSON.stringify({ event_id: event, merchant_id: merchantId, status: 'APPROVAL' });
  return [
    randomUUID(),
    merchantId,
    randomUUID(),
    randomUUID(),
    event,
    url,
    body,
    iso(due),
    iso(due),
    owner,
    iso(until),
  ];
}

/** Writes rows of heldDelivery in one statement, on the API's database. */
export async function insertDeliveries(stack: Stack, rows: unknown[][]): Promise<void> {
  await stack.store.execute(
    'api',
    'INSERT INTO webhook_deliveries (id, merchant_id, transaction_id, position, client_transaction_id, ' +
      'event_id, event_status, url, payload, state, attempt_count, next_attempt_at, created_at, lease_owner, lease_until) VALUES ' +
      rows.map(() => "(?, ?, ?, 1, ?, ?, 'APPROVAL', ?, ?, 'pending', 0, ?, ?, ?, ?)").join(', '),
    rows.flat(),
  );
}

/** A print job of `serial` finished at `at`, whose callback to `url` the stopped process holds. */
export function heldCallback(merchantId: string, serial: string, url: string, at: number): unknown[] {
  return [randomUUID(), merchantId, serial, url, iso(at), iso(at), STOPPED, iso(Date.now() + HELD_FOR_MS)];
}

/** Writes rows of heldCallback in one statement, on the API's database. */
export async function insertPrintJobs(stack: Stack, rows: unknown[][]): Promise<void> {
  await stack.store.execute(
    'api',
    'INSERT INTO print_jobs (print_job_id, merchant_id, terminal_serial, status, webhook_url, commands, ' +
      'created_at, updated_at, callback_owner, callback_lease_until) VALUES ' +
      rows.map(() => "(?, ?, ?, 'COMPLETED', ?, '[]', ?, ?, ?, ?)").join(', '),
    rows.flat(),
  );
}
