import { Stack, WebhookReceiver, poll } from '@tps/testing';
import {
  ChargeLoad,
  answeredOk,
  asyncCharge,
  everyOnlineOf,
  makeAccounts,
  firstArrivals,
  type Attempt,
  type DrillAccount,
} from './cluster-load';
import { amountOf, lostAnswers, storedHalf, type Json } from './payment-helpers';
import { cutOff, restore } from './storage-faults';

/**
 * PostgreSQL unavailable under load, with several API replicas on it (contract §19 and "Several
 * API replicas on one PostgreSQL database"): the database refuses new connections and its backends
 * are terminated (the server is shared by other suites, so it is never stopped), then it is back.
 */
const REPLICAS = 3;
const ACCOUNTS = 2;
const TERMINALS_PER_ACCOUNT = 20;
/** Terminals of the first account that run async charges with webhooks, at the realistic pace. */
const WITH_WEBHOOKS = 3;
/** Down at least this long: past three replica heartbeats and a delivery lease. */
const DOWN_AT_LEAST_MS = 5000;
const LEASE_MS = 3000;
const FINAL = ['APPROVAL', 'DECLINED', 'TERMINAL_REJECTED', 'TERMINAL_CANCELED'];

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The only answers a charge may get while the database is down: not taken, or taken and unknown. */
function refusedAsAllowed(attempt: Attempt): boolean {
  const answer = attempt.answer;
  if (answer === undefined || 'cut' in answer) return false;
  return (
    (answer.status === 503 && answer.code === 'INT-002') ||
    (answer.status === 504 && (answer.code === 'INT-003' || answer.code === 'TER-002'))
  );
}

describe('PostgreSQL unavailable under load, three replicas [postgres]', () => {
  let stack: Stack;
  let receiver: WebhookReceiver;
  let load: ChargeLoad | undefined;
  let database: string;

  beforeAll(async () => {
    stack = await Stack.start({
      store: 'postgres',
      replicas: REPLICAS,
      apiEnv: { DELIVERY_LEASE_MS: String(LEASE_MS) },
    });
    receiver = await WebhookReceiver.start();
    database = new URL(await stack.store.url('api')).pathname.slice(1);
  }, 60_000);

  afterAll(async () => {
    await load?.halt();
    if (database !== undefined) await restore(database).catch(() => undefined);
    await stack?.stop();
    await receiver?.close();
  });

  it('answers only 503 INT-002 / 504 while down; every replica goes on by itself; nothing answered is lost', async () => {
    // Made on the replica that holds the simulator's control link, as the terminals link there.
    const accounts = await makeAccounts(stack.clientOf(0), ACCOUNTS, TERMINALS_PER_ACCOUNT);
    const fleet = accounts.reduce((sum, account) => sum + account.serials.length, 0) + 3;
    const webhooks = stack.clientOf(0).as(accounts[0].credentials);
    const hooked = accounts[0].serials.slice(0, WITH_WEBHOOKS);
    const loaded: DrillAccount[] = accounts.map((account, n) =>
      n === 0 ? { ...account, serials: account.serials.slice(WITH_WEBHOOKS) } : account,
    );
    expect((await webhooks.post('/sandbox/webhook-secret')).status).toBe(200);
    // Slow enough that charges started just before the outage run on their terminals through it.
    for (const serial of hooked) {
      expect((await webhooks.patch(`/sandbox/terminals/${serial}`, { pace: 'realistic' })).status).toBe(200);
    }

    const charges = new ChargeLoad(stack, loaded, {
      pauseMs: 1000,
      giveUpAfterMs: 60_000,
      allowed: refusedAsAllowed,
      // Contract §19: INT-002 says the operation was not taken, so its terminal has no trace of it.
      check: async (attempt) => {
        if (
          attempt.answer === undefined ||
          !('status' in attempt.answer) ||
          attempt.answer.code !== 'INT-002'
        )
          return undefined;
        const taken = await stack.store.rows<{ status: string }>(
          'terminal',
          'SELECT status FROM terminal_transactions WHERE key = ?',
          [`${attempt.merchantId}:${attempt.id}`],
        );
        return taken.length === 0 ? undefined : `INT-002 answered, terminal ${taken[0].status}`;
      },
    });
    load = charges;
    charges.start();
    await charges.answers(60, 60_000);

    const url = receiver.url('/outage');
    const ids = await Promise.all(hooked.map((serial) => asyncCharge(webhooks, serial, url)));
    await cutOff(database);
    const cutAt = Date.now();
    const refusals = (): number =>
      charges.attempts.filter(
        (attempt) => attempt.at >= cutAt && attempt.answer !== undefined && refusedAsAllowed(attempt),
      ).length;
    while (Date.now() < cutAt + DOWN_AT_LEAST_MS || (refusals() < 20 && Date.now() < cutAt + 15_000))
      await sleep(100);
    await restore(database);
    const restoredAt = Date.now();

    // Every replica, never restarted, has its database again and answers charges.
    for (const replica of stack.replicas) {
      await poll(
        `${replica.url} to report its database up`,
        async () => {
          const health = (await (await fetch(`${replica.url}/health`)).json()) as Json;
          return health.database.state !== 'down' ? true : undefined;
        },
        15_000,
      );
    }
    await charges.answers(100, 60_000);
    ids.push(...(await Promise.all(hooked.map((serial) => asyncCharge(webhooks, serial, url)))));
    await charges.stop();

    expect(charges.unexpected).toEqual([]);
    expect(refusals()).toBeGreaterThan(0);
    const servedAfter = charges.attempts
      .filter((attempt) => attempt.at > restoredAt && answeredOk(attempt))
      .map((attempt) => attempt.replica);
    expect([...new Set(servedAfter)].sort()).toEqual(stack.replicas.map((_, n) => n));

    // The links are back: every terminal held by a live replica, every replica ready, and what the
    // terminals ran meanwhile has reached the service.
    await poll(
      'every terminal linked',
      async () => {
        const [row] = await stack.store.rows<{ n: number }>(
          'api',
          'SELECT COUNT(*) AS n FROM terminal_uplinks u JOIN api_replicas r ON r.id = u.replica_id ' +
            "AND r.epoch = u.replica_epoch WHERE r.heartbeat_at > now() - interval '3 seconds'",
        );
        return row.n === fleet ? true : undefined;
      },
      15_000,
    );
    for (let n = 0; n < REPLICAS; n++) await stack.waitReady(n, 15_000);
    // The async charges started last still run (pace realistic): the service is read once nothing
    // runs on the terminals and their queue is drained, so it has every end they will come to.
    await poll(
      'nothing running on the terminals',
      async () => {
        const [row] = await stack.store.rows<{ n: number }>(
          'terminal',
          `SELECT COUNT(*) AS n FROM terminal_transactions WHERE status NOT IN (${FINAL.map(() => '?').join(', ')})`,
          FINAL,
        );
        return row.n === 0 ? true : undefined;
      },
      15_000,
    );
    await stack.waitQueueDrained(30_000);

    const online = await everyOnlineOf(stack.clientOf(0), accounts);
    expect(lostAnswers(charges.answered, online)).toEqual([]);

    // A same-id retry answers what was answered, on each replica.
    const sample = charges.attempts.find((attempt) => charges.answered.has(attempt.id))!;
    const credentials = accounts.find(
      (account) => account.credentials.merchantId === sample.merchantId,
    )!.credentials;
    for (let n = 0; n < REPLICAS; n++) {
      const again = await stack
        .clientOf(n)
        .as(credentials)
        .post<Json>(`/terminal/v1/${sample.serial}/sync/charge`, {
          amount: amountOf(10_000),
          client_transaction_id: sample.id,
        });
      expect([again.status, again.body.approved]).toEqual([200, charges.answered.get(sample.id)!.approved]);
    }

    // Nothing stored half, and every terminal transaction is in the service with the same status.
    expect(await storedHalf(stack)).toEqual([]);
    for (const account of accounts) {
      const prefix = `${account.credentials.merchantId}:`;
      const onTerminals = await stack.store.rows<{ key: string; status: string }>(
        'terminal',
        'SELECT key, status FROM terminal_transactions WHERE key LIKE ?',
        [`${prefix}%`],
      );
      const missing = onTerminals
        .filter((row) => online.get(row.key.slice(prefix.length))?.status !== row.status)
        .map((row) => `${row.key} ${row.status}`);
      expect(missing).toEqual([]);
    }

    // The deliveries went on: every event of the async charges, those the outage held up
    // included, delivered in order (each by its first arrival: firstArrivals) with its webhook-id.
    for (const id of ids) {
      const stored = await poll(
        `the deliveries of ${id} delivered`,
        async () => {
          const deliveries = await stack.store.rows<{
            event_status: string;
            event_id: string;
            state: string;
          }>(
            'api',
            'SELECT event_status, event_id, state FROM webhook_deliveries WHERE client_transaction_id = ? ORDER BY position',
            [id],
          );
          return deliveries.length === 3 && deliveries.every((row) => row.state === 'delivered')
            ? deliveries
            : undefined;
        },
        30_000,
      );
      expect(firstArrivals(receiver, id)).toEqual(stored.map((row) => [row.event_status, row.event_id]));
    }
  }, 240_000);
});
