import { randomUUID } from 'node:crypto';
import {
  DEMO_MERCHANT,
  OTHER_MERCHANT,
  Stack,
  WebhookReceiver,
  neverAnswer,
  type StoreKind,
} from '@tps/testing';
import { STOPPED, heldCallback, heldDelivery, insertDeliveries, insertPrintJobs } from './held-rows';
import { describeOnStores } from './stores';

/** The cap of a merchant's deliveries the processes hold through claims (WEBHOOK_MAX_HELD_PER_MERCHANT). */
const CAP = 10;
/** The busy merchant's hanging receivers, each a destination of its own, and its deliveries to each. */
const DESTINATIONS = 20;
const PER_DESTINATION = 2;
/** Each attempt to a receiver that never answers lasts this long: no slot frees during the drill. */
const TIMEOUT_MS = 30_000;
/** How long the busy merchant's attempts are watched once the quiet merchant's came: several claims of each process. */
const WATCH_MS = 3_000;
/**
 * The paths of this file's receivers, its own: a test of another file whose sender still retries
 * to a port one of them took after it has its requests left out of the counts.
 */
const HANGS = `/hangs/${randomUUID()}`;
const QUIET = `/quiet/${randomUUID()}`;

const iso = (ms: number): string => new Date(ms).toISOString();
const settle = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The most attempts `open` counted at once, sampled every 10 ms, while `work` runs. */
async function mostOpenWhile(open: () => number, work: () => Promise<void>): Promise<number> {
  let most = 0;
  const sampler = setInterval(() => (most = Math.max(most, open())), 10);
  try {
    await work();
  } finally {
    clearInterval(sampler);
  }
  return most;
}

/** Two API processes on one database where it can have two (PostgreSQL), one on a SQLite file. */
const replicasOn = (store: StoreKind): number => (store === 'postgres' ? 2 : 1);

/**
 * Contract, webhook delivery, "Fairness": a merchant's deliveries that no process holds (given
 * back by a process that stopped) are claimed up to its cap, counted over every process: what
 * the processes hold of it, together, stays at the cap while the rest waits unclaimed, however
 * many processes claim and however much room they have; another merchant's delivery is claimed
 * beside it at once.
 */
describeOnStores('deliveries claimed up to a merchant’s cap, over every process', (store) => {
  let stack: Stack;
  let hanging: WebhookReceiver[] = [];
  let quiet: WebhookReceiver;
  const open = () => hanging.reduce((sum, receiver) => sum + receiver.openAt(HANGS), 0);

  beforeAll(async () => {
    stack = await Stack.start({
      store,
      replicas: replicasOn(store),
      apiEnv: { WEBHOOK_MAX_HELD_PER_MERCHANT: String(CAP), WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS) },
    });
    hanging = await Promise.all(
      Array.from({ length: DESTINATIONS }, () => WebhookReceiver.start(neverAnswer)),
    );
    quiet = await WebhookReceiver.start();
  }, 60_000);

  afterAll(async () => {
    await stack?.stop();
    await Promise.all([...hanging.map((receiver) => receiver.close()), quiet?.close()]);
  });

  /** The merchant's pending deliveries leased to a process whose lease has not ended. */
  const heldOf = async (merchantId: string): Promise<number> => {
    const [counted] = await stack.store.rows<{ n: number }>(
      'api',
      "SELECT COUNT(*) AS n FROM webhook_deliveries WHERE merchant_id = ? AND state = 'pending' AND lease_owner IS NOT NULL AND lease_until >= ?",
      [merchantId, iso(Date.now())],
    );
    return Number(counted.n);
  };

  it('holds the busy merchant’s claimed deliveries at its cap, all processes together, and claims the other merchant’s at once', async () => {
    const due = Date.now() - 60_000;
    const rows = hanging.flatMap((receiver, d) =>
      Array.from({ length: PER_DESTINATION }, (_, i) =>
        heldDelivery(DEMO_MERCHANT.merchantId, receiver.url(HANGS), due + d * PER_DESTINATION + i),
      ),
    );
    rows.push(heldDelivery(OTHER_MERCHANT.merchantId, quiet.url(QUIET), due + rows.length));
    await insertDeliveries(stack, rows);

    const mostOpen = await mostOpenWhile(open, async () => {
      // The process that held them stops: its leases go back at once, all in one statement.
      await stack.store.execute(
        'api',
        "UPDATE webhook_deliveries SET lease_owner = NULL, lease_until = '1970-01-01T00:00:00.000Z' WHERE lease_owner = ?",
        [STOPPED],
      );
      await quiet.waitFor((received) => received.some((request) => request.path === QUIET), 30_000);
      // Every process claims several times meanwhile, each with room for all of them.
      await settle(WATCH_MS);
    });

    // The cap's worth of attempts, no more, though every process had room and more were due;
    // the rest of the busy merchant's backlog still unclaimed.
    expect(mostOpen).toBe(CAP);
    expect(open()).toBe(CAP);
    expect(await heldOf(DEMO_MERCHANT.merchantId)).toBe(CAP);
    expect(hanging.reduce((sum, receiver) => sum + receiver.bodies(HANGS).length, 0)).toBe(CAP);
  }, 90_000);
});

/**
 * The same for print callbacks, capped per merchant with the same setting: a merchant's callbacks
 * given back are made at most the cap at a time over every process.
 */
describeOnStores('print callbacks claimed up to a merchant’s cap, over every process', (store) => {
  let stack: Stack;
  let hanging: WebhookReceiver[] = [];
  let quiet: WebhookReceiver;
  const open = () => hanging.reduce((sum, receiver) => sum + receiver.openAt(HANGS), 0);

  beforeAll(async () => {
    stack = await Stack.start({
      store,
      replicas: replicasOn(store),
      apiEnv: { WEBHOOK_MAX_HELD_PER_MERCHANT: String(CAP), PRINT_CALLBACK_TIMEOUT_MS: String(TIMEOUT_MS) },
    });
    hanging = await Promise.all(
      Array.from({ length: DESTINATIONS }, () => WebhookReceiver.start(neverAnswer)),
    );
    quiet = await WebhookReceiver.start();
  }, 60_000);

  afterAll(async () => {
    await stack?.stop();
    await Promise.all([...hanging.map((receiver) => receiver.close()), quiet?.close()]);
  });

  it('makes the busy merchant’s given-back callbacks at most its cap at a time, all processes together, and the other merchant’s at once', async () => {
    const finished = Date.now() - 60_000;
    const jobs = hanging.flatMap((receiver, d) =>
      Array.from({ length: PER_DESTINATION }, (_, i) =>
        heldCallback(
          DEMO_MERCHANT.merchantId,
          'SIM0000002',
          receiver.url(HANGS),
          finished + d * PER_DESTINATION + i,
        ),
      ),
    );
    jobs.push(
      heldCallback(OTHER_MERCHANT.merchantId, 'SIM0000003', quiet.url(QUIET), finished + jobs.length),
    );
    await insertPrintJobs(stack, jobs);

    const mostOpen = await mostOpenWhile(open, async () => {
      await stack.store.execute(
        'api',
        "UPDATE print_jobs SET callback_owner = NULL, callback_lease_until = '1970-01-01T00:00:00.000Z' WHERE callback_owner = ?",
        [STOPPED],
      );
      await quiet.waitFor((received) => received.some((request) => request.path === QUIET), 30_000);
      await settle(WATCH_MS);
    });

    expect(mostOpen).toBe(CAP);
    expect(open()).toBe(CAP);
    expect(hanging.reduce((sum, receiver) => sum + receiver.bodies(HANGS).length, 0)).toBe(CAP);
  }, 90_000);
});

/** The backlog a dead replica left: many claims' worth of a replica's room (64 slots and 8 ahead). */
const DEAD_BACKLOG = 200;
/** Its receivers, all hanging: what a replica claims stays held, and what it holds shows where it went. */
const BACKLOG_DESTINATIONS = 50;

/**
 * Contract, webhook delivery, "How much a process claims": a replica claims what it can start
 * soon, its free slots and a few more, so a dead replica's backlog is spread over the live
 * replicas, each taking what it can start, not taken whole by the first to claim.
 */
describe('a dead replica’s backlog spread over the live ones [postgres]', () => {
  let stack: Stack;
  let hanging: WebhookReceiver[] = [];

  beforeAll(async () => {
    stack = await Stack.start({
      store: 'postgres',
      replicas: 2,
      // Neither merchant's cap binds here: what each replica claims is its room alone.
      apiEnv: { WEBHOOK_MAX_HELD_PER_MERCHANT: String(DEAD_BACKLOG), WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS) },
    });
    hanging = await Promise.all(
      Array.from({ length: BACKLOG_DESTINATIONS }, () => WebhookReceiver.start(neverAnswer)),
    );
  }, 60_000);

  afterAll(async () => {
    await stack?.stop();
    await Promise.all(hanging.map((receiver) => receiver.close()));
  });

  it('gives each live replica a share of it as it has room, and leaves the rest unclaimed', async () => {
    const due = Date.now() - 60_000;
    const merchants = [DEMO_MERCHANT.merchantId, OTHER_MERCHANT.merchantId];
    // Its leases ended: every live replica may claim them at once.
    const rows = Array.from({ length: DEAD_BACKLOG }, (_, i) =>
      heldDelivery(
        merchants[i % merchants.length],
        hanging[i % BACKLOG_DESTINATIONS].url('/hangs'),
        due + i,
        'dead-replica/000000000001',
        0,
      ),
    );
    await insertDeliveries(stack, rows);
    // Each replica claims at least once, then again a second later.
    await settle(2_500);

    const held = await stack.store.rows<{ replica: string; n: number }>(
      'api',
      "SELECT substr(lease_owner, 1, strpos(lease_owner, '/')) AS replica, COUNT(*) AS n FROM webhook_deliveries " +
        "WHERE state = 'pending' AND lease_owner NOT LIKE 'dead-replica/%' GROUP BY 1",
    );
    const counts = held.map((row) => Number(row.n));
    // Both replicas took a share, each at least its 64 slots' worth: neither the whole backlog.
    expect(counts).toHaveLength(2);
    expect(Math.min(...counts)).toBeGreaterThanOrEqual(64);
    expect(counts.reduce((sum, n) => sum + n, 0)).toBeLessThan(DEAD_BACKLOG);
  }, 90_000);
});
