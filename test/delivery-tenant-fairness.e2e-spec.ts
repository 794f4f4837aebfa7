import {
  OTHER_MERCHANT,
  createInstantTerminals,
  Stack,
  WebhookReceiver,
  neverAnswer,
  poll,
} from '@tps/testing';
import { asyncCharge } from './cluster-load';
import { describeOnStores } from './stores';

/** The service's attempts in flight at once (MAX_CONCURRENT_ATTEMPTS). */
const SLOTS = 64;
/**
 * The free slots kept from a merchant with this many in flight: one destination's share
 * (WEBHOOK_MAX_IN_FLIGHT_PER_DESTINATION as shipped).
 */
const RESERVE = 8;
/**
 * More destinations than slots: were the slots shared per destination alone, the abuser would take
 * them all, and some of its destinations would still wait with nothing in flight.
 */
const DESTINATIONS = 80;
const TERMINALS = 16;
/**
 * Each attempt to a receiver that never answers lasts this long: longer than the abuser's charges
 * and the other merchant's take, so that no slot frees by a timeout before the other's attempt.
 */
const TIMEOUT_MS = 20_000;
const SPACING_MS = 20;

const settle = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Contract, webhook delivery, "Fairness": a merchant with a destination's share or more in flight
 * takes none of the last that many free slots. One merchant with more hanging destinations than
 * the service has slots holds every slot but that reserve; another merchant's first attempt then
 * starts at once, in the reserve, not in a slot freed by one of the abuser's timeouts.
 */
describeOnStores('delivery fairness between merchants', (store) => {
  let stack: Stack;
  let hanging: WebhookReceiver[] = [];
  let healthy: WebhookReceiver;
  const open = () => hanging.reduce((sum, receiver) => sum + receiver.open, 0);
  const arrived = () => hanging.reduce((sum, receiver) => sum + receiver.received.length, 0);
  /** The abuser's attempts arrived, and still under way, when the other merchant's first arrived. */
  let atOthersFirst: { arrived: number; open: number } | undefined;

  beforeAll(async () => {
    stack = await Stack.start({ store, apiEnv: { WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS) } });
    hanging = await Promise.all(
      Array.from({ length: DESTINATIONS }, () => WebhookReceiver.start(neverAnswer)),
    );
    healthy = await WebhookReceiver.start((_request, n, response) => {
      if (n === 1) atOthersFirst = { arrived: arrived(), open: open() };
      response.end();
    });
  });

  afterAll(async () => {
    await stack?.stop();
    await Promise.all([...hanging.map((receiver) => receiver.close()), healthy?.close()]);
  });

  it("keeps every slot but the reserve from a merchant whose receivers hang, and starts another merchant's first attempt at once", async () => {
    let mostOpen = 0;
    const sampler = setInterval(() => (mostOpen = Math.max(mostOpen, open())), 10);
    try {
      const demo = stack.client();
      const serials = await createInstantTerminals(demo, TERMINALS);
      // One after another, SPACING_MS apart: each attempt that may start has started before the next
      // charge, so what the abuser holds is the service's choice alone.
      for (let i = 0; i < DESTINATIONS; i += 1) {
        await asyncCharge(demo, serials[i % serials.length], hanging[i].url('/hangs'));
        await settle(SPACING_MS);
      }
      await poll(
        'every slot but the reserve held by the hanging destinations',
        async () => (open() >= SLOTS - RESERVE ? true : undefined),
        10_000,
      );

      await asyncCharge(stack.client().as(OTHER_MERCHANT), 'SIM0000003', healthy.url('/other'));
      await healthy.waitFor((received) => received.length > 0, 2 * TIMEOUT_MS);
      // The abuser, with more due than it holds, held its cap and no more; the other merchant's
      // first attempt came while every one of the abuser's was still under way: none had freed a
      // slot by its timeout.
      expect(atOthersFirst).toEqual({ arrived: SLOTS - RESERVE, open: SLOTS - RESERVE });
      expect(mostOpen).toBe(SLOTS - RESERVE);
    } finally {
      clearInterval(sampler);
    }
  }, 120_000);
});

/**
 * Contract, webhook delivery, "Fairness": a destination's share is a merchant's, in each process
 * and across processes (PostgreSQL's slots). One merchant's attempts to a receiver that hangs on
 * its path hold that merchant's share of the receiver; another merchant's delivery to the same
 * receiver starts at once, not after one of their timeouts.
 */
describeOnStores('delivery fairness between merchants on one receiver', (store) => {
  /** A destination's attempts in flight, per merchant (WEBHOOK_MAX_IN_FLIGHT_PER_DESTINATION as shipped). */
  const SHARE = 8;
  let stack: Stack;
  let shared: WebhookReceiver;
  const hangingOn = (received: Array<{ path: string }>) => received.filter((r) => r.path === '/hangs');
  let atOthersFirst: { arrived: number; open: number } | undefined;

  beforeAll(async () => {
    stack = await Stack.start({ store, apiEnv: { WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS) } });
    shared = await WebhookReceiver.start((request, _n, response) => {
      if (request.path === '/hangs') return;
      // This request is under way too.
      atOthersFirst ??= { arrived: hangingOn(shared.received).length, open: shared.open - 1 };
      response.end();
    });
  });

  afterAll(async () => {
    await stack?.stop();
    await shared?.close();
  });

  it("starts another merchant's delivery to a receiver at once while one merchant's attempts to it hang", async () => {
    const demo = stack.client();
    const serials = await createInstantTerminals(demo, TERMINALS);
    for (let i = 0; i < 2 * SHARE; i += 1) {
      await asyncCharge(demo, serials[i % serials.length], shared.url('/hangs'));
    }
    await poll(
      "the merchant's share of the receiver held",
      async () => (shared.open >= SHARE ? true : undefined),
      10_000,
    );

    await asyncCharge(stack.client().as(OTHER_MERCHANT), 'SIM0000003', shared.url('/other'));
    await shared.waitFor((received) => received.some((r) => r.path === '/other'), 2 * TIMEOUT_MS);
    // The merchant held its share and no more; the other's attempt came while all of them were
    // still under way: it did not wait for a timeout to free one.
    expect(atOthersFirst).toEqual({ arrived: SHARE, open: SHARE });
  }, 120_000);
});
