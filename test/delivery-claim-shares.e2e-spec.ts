import { DEMO_MERCHANT, OTHER_MERCHANT, Stack, WebhookReceiver, poll } from '@tps/testing';
import { STOPPED, heldCallback, heldDelivery, insertDeliveries, insertPrintJobs } from './held-rows';
import { describeOnStores } from './stores';

/** The busy merchant's deliveries nobody holds: many claims' worth (a claim takes 256 at most). */
const BACKLOG = 3000;
/** Its receivers, each a destination of its own: its attempts in flight are up to 64 − 8. */
const DESTINATIONS = 8;
/** Deliveries claimed in one statement (the dispatcher's CLAIM_BATCH). */
const CLAIM_BATCH = 256;
/** Rows written in one statement while the backlog is laid down. */
const ROWS_PER_INSERT = 100;

/**
 * Contract, webhook delivery, "Fairness": the deliveries no process holds (a replica that stopped
 * gave them back, or a dead one's whose leases ended) are claimed per merchant first, then per
 * destination. A claim takes the head of every merchant's backlog before the second delivery of
 * any: another merchant's one delivery, due after a busy merchant's thousands, goes out with the
 * first claim, not once that backlog has been claimed batch after batch.
 */
describeOnStores('deliveries claimed per merchant', (store) => {
  let stack: Stack;
  let busy: WebhookReceiver[] = [];
  let quiet: WebhookReceiver;
  const busyArrived = () => busy.reduce((sum, receiver) => sum + receiver.received.length, 0);
  /** The busy merchant's attempts arrived when the quiet merchant's first did. */
  let atQuietsFirst: number | undefined;

  beforeAll(async () => {
    stack = await Stack.start({ store });
    busy = await Promise.all(Array.from({ length: DESTINATIONS }, () => WebhookReceiver.start()));
    quiet = await WebhookReceiver.start((_request, n, response) => {
      if (n === 1) atQuietsFirst = busyArrived();
      response.end();
    });
  }, 60_000);

  afterAll(async () => {
    await stack?.stop();
    await Promise.all([...busy.map((receiver) => receiver.close()), quiet?.close()]);
  });

  it("sends another merchant's delivery with the first claim, however many of one merchant's are due before it", async () => {
    // Every delivery fell due a minute ago, the busy merchant's first, the quiet merchant's last.
    const due = Date.now() - 60_000;
    const backlog = Array.from({ length: BACKLOG }, (_, i) =>
      heldDelivery(DEMO_MERCHANT.merchantId, busy[i % DESTINATIONS].url('/busy'), due + i),
    );
    for (let i = 0; i < backlog.length; i += ROWS_PER_INSERT)
      await insertDeliveries(stack, backlog.slice(i, i + ROWS_PER_INSERT));
    await insertDeliveries(stack, [
      heldDelivery(OTHER_MERCHANT.merchantId, quiet.url('/quiet'), due + BACKLOG),
    ]);

    // The process that held them stops: its leases go back at once, all in one statement.
    await stack.store.execute(
      'api',
      "UPDATE webhook_deliveries SET lease_owner = NULL, lease_until = '1970-01-01T00:00:00.000Z' WHERE lease_owner = ?",
      [STOPPED],
    );
    await quiet.waitFor((received) => received.length > 0, 60_000);

    // The quiet merchant's delivery came with the first claim, in the reserve: fewer of the busy
    // merchant's had arrived than one claim holds. Claimed in the table's order alone, it comes
    // BACKLOG / CLAIM_BATCH claims later, and the busy merchant's backlog has mostly gone by then
    // (its receivers answer at once: some 2,400 of the 3,000 had arrived, on either store).
    expect(atQuietsFirst).toBeLessThan(CLAIM_BATCH);
    // And the busy merchant's backlog goes out too, each delivery once.
    await poll(
      'the busy merchant’s backlog delivered',
      async () => (busyArrived() >= BACKLOG ? true : undefined),
      60_000,
    );
    expect(busyArrived()).toBe(BACKLOG);
  }, 120_000);
});

/** The busy merchant's finished print jobs whose callback nobody holds (a claim takes 64 at most). */
const CALLBACK_BACKLOG = 1000;
/** Print callbacks claimed in one statement (PrintCallbacks' CLAIM_BATCH). */
const CALLBACK_CLAIM_BATCH = 64;

/**
 * The same for print callbacks, claimed per merchant: another merchant's one callback, finished
 * after a busy merchant's thousand, is made with the first claim.
 */
describeOnStores('print callbacks claimed per merchant', (store) => {
  let stack: Stack;
  /** One receiver: the busy merchant's callbacks in flight are one destination's share, 8. */
  let busy: WebhookReceiver;
  let quiet: WebhookReceiver;
  /** The busy merchant's callbacks arrived when the quiet merchant's did. */
  let atQuietsFirst: number | undefined;

  beforeAll(async () => {
    stack = await Stack.start({ store });
    busy = await WebhookReceiver.start();
    quiet = await WebhookReceiver.start((_request, n, response) => {
      if (n === 1) atQuietsFirst = busy.received.length;
      response.end();
    });
  }, 60_000);

  afterAll(async () => {
    await stack?.stop();
    await Promise.all([busy?.close(), quiet?.close()]);
  });

  it("makes another merchant's callback with the first claim, however many of one merchant's finished before it", async () => {
    const finished = Date.now() - 60_000;
    const backlog = Array.from({ length: CALLBACK_BACKLOG }, (_, i) =>
      heldCallback(DEMO_MERCHANT.merchantId, 'SIM0000002', busy.url('/busy'), finished + i),
    );
    for (let i = 0; i < backlog.length; i += ROWS_PER_INSERT)
      await insertPrintJobs(stack, backlog.slice(i, i + ROWS_PER_INSERT));
    await insertPrintJobs(stack, [
      heldCallback(OTHER_MERCHANT.merchantId, 'SIM0000003', quiet.url('/quiet'), finished + CALLBACK_BACKLOG),
    ]);

    // The process that held them stops: their leases go back at once.
    await stack.store.execute(
      'api',
      "UPDATE print_jobs SET callback_owner = NULL, callback_lease_until = '1970-01-01T00:00:00.000Z' WHERE callback_owner = ?",
      [STOPPED],
    );
    await quiet.waitFor((received) => received.length > 0, 60_000);
    // With the first claim, beside the busy merchant's first 8 in flight. Claimed in the order
    // they finished alone, it was made after some 250 to 1,000 of them.
    expect(atQuietsFirst).toBeLessThan(CALLBACK_CLAIM_BATCH);
    await busy.waitFor((received) => received.length >= CALLBACK_BACKLOG, 60_000);
    expect(busy.received).toHaveLength(CALLBACK_BACKLOG);
  }, 120_000);
});
