/**
 * The webhook outbox under load: how fast a backlog of due deliveries drains to a
 * receiver that answers 200 at once, how long an event waits from being stored to being received,
 * and what 10,000 deliveries waiting for their retry cost the API in memory and CPU.
 * Standalone: `npm run build && node dist/bench/webhook-delivery.js`; `npm run bench` includes it.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { Database } from 'sqlite3';
import { poll, sqliteRows, Stack, WebhookReceiver, answerWith } from '@tps/testing';
import { chargeBody } from './lib/charge-body';
import { cloneRows, uuidFor } from './lib/clone-rows';
import { cpuTimeMs, residentMiB } from './lib/resident-memory';
import { storedToReceivedMs } from './lib/outbox-latency';
import { percentile } from './lib/stats';

export interface WebhookDeliveryResult {
  backlog: number;
  /** Due deliveries sent and recorded per second, draining the backlog. */
  deliveriesPerSecond: number;
  /** Event stored (its outbox row written) → webhook received, live charges, ms. */
  storedToReceivedP50: number;
  storedToReceivedP99: number;
  idleApiMiB: number;
  waitingApiMiB: number;
  /** CPU used by the API while the backlog waits for its retry, as a share of one core. */
  waitingCpuPercent: number;
  /** API start-up with the backlog to resume, until it listens, ms. */
  resumeStartMs: number;
}

const settle = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function exec(file: string, sql: string): Promise<void> {
  const db = new Database(file);
  return new Promise<void>((resolve, reject) =>
    db.exec(sql, (error) => (error ? reject(error) : resolve())),
  ).finally(() => new Promise<void>((done) => db.close(() => done())));
}

async function charge(stack: Stack, serial: string, webhook: string): Promise<void> {
  const client = stack.client();
  const body = chargeBody(webhook);
  // The terminal may still be finishing its last transaction (TER-003): try again.
  while ((await client.send('POST', `/terminal/v1/${serial}/async/charge`, body)).status !== 200)
    await settle(2);
}

/** Live charges on the two seeded terminals: each event's wait from its outbox row to the receiver. */
async function storedToReceived(stack: Stack, receiver: WebhookReceiver, charges: number): Promise<number[]> {
  for (let i = 0; i < charges; i++) {
    await Promise.all(
      ['SIM0000001', 'SIM0000002'].map((serial) => charge(stack, serial, receiver.url('/live'))),
    );
  }
  await receiver.waitFor((all) => all.filter((r) => r.path === '/live').length >= charges * 6, 60_000);
  return storedToReceivedMs(
    stack.store,
    receiver.received.filter((r) => r.path === '/live'),
  );
}

export async function measureWebhookDelivery(
  backlog = 10_000,
  waitSeconds = 10,
): Promise<WebhookDeliveryResult> {
  const stack = await Stack.start();
  const receiver = await WebhookReceiver.start();
  const api = join(stack.dir, 'api.sqlite');
  try {
    const latencies = await storedToReceived(stack, receiver, 100);
    await settle(1000);
    const idleApiMiB = residentMiB(stack.api.pid ?? 0);

    // A backlog of deliveries that each failed once and wait for a retry five minutes away.
    await stack.simulator?.stop();
    await stack.api.stop();
    const [template] = await sqliteRows<{ id: string }>(api, 'SELECT id FROM webhook_deliveries LIMIT 1');
    const now = Date.now();
    await cloneRows(api, 'webhook_deliveries', `id = '${template.id}'`, backlog, {
      id: uuidFor('id'),
      transaction_id: `'${randomUUID().slice(0, 24)}' || printf('%012d', n)`,
      event_id: uuidFor('event_id'),
      position: '1',
      state: `'pending'`,
      failure: 'NULL',
      attempt_count: '1',
      first_attempt_at: `'${new Date(now).toISOString()}'`,
      next_attempt_at: `'${new Date(now + 5 * 60_000).toISOString()}'`,
    });
    receiver.respondWith(answerWith(200));
    const starting = Date.now();
    await stack.startApi();
    const resumeStartMs = Date.now() - starting;
    await settle(1000);
    const pid = stack.api.pid ?? 0;
    const cpuBefore = cpuTimeMs(pid);
    await settle(waitSeconds * 1000);
    const waitingCpuPercent = ((cpuTimeMs(pid) - cpuBefore) / (waitSeconds * 1000)) * 100;
    const waitingApiMiB = residentMiB(pid);

    // The same backlog, all due now: how fast it drains.
    await stack.api.stop();
    await exec(
      api,
      `UPDATE webhook_deliveries SET next_attempt_at = '${new Date().toISOString()}' WHERE state = 'pending'`,
    );
    const before = receiver.received.length;
    const draining = Date.now();
    await stack.startApi();
    await poll(
      'the backlog to drain',
      async () => {
        const [left] = await sqliteRows<{ n: number }>(
          api,
          `SELECT COUNT(*) AS n FROM webhook_deliveries WHERE state = 'pending'`,
        );
        return left.n === 0 ? true : undefined;
      },
      300_000,
    );
    const drainedIn = (Date.now() - draining) / 1000;
    if (receiver.received.length - before < backlog)
      throw new Error('the backlog did not reach the receiver');
    return {
      backlog,
      deliveriesPerSecond: backlog / drainedIn,
      storedToReceivedP50: percentile(latencies, 50),
      storedToReceivedP99: percentile(latencies, 99),
      idleApiMiB,
      waitingApiMiB,
      waitingCpuPercent,
      resumeStartMs,
    };
  } finally {
    await receiver.close();
    await stack.stop();
  }
}

if (require.main === module) {
  measureWebhookDelivery()
    .then((result) => process.stdout.write(`${JSON.stringify(result, null, 2)}\n`))
    .catch((error: unknown) => {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    });
}
