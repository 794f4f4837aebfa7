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
 * More destinations than slots: once every slot is taken, some of them wait with nothing in
 * flight, so sharing per destination alone would let them go before another merchant.
 */
const DESTINATIONS = 80;
const TERMINALS = 16;
/** Each attempt to a receiver that never answers lasts this long: longer than the charges take. */
const TIMEOUT_MS = 5000;
const SPACING_MS = 20;

const settle = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Contract "Tenants of a hosted sandbox", fair delivery: a free slot goes to the merchant with the
 * fewest attempts in flight. One merchant with more hanging destinations than the service has
 * slots takes them all; another merchant's first attempt then starts before that merchant's next.
 */
describeOnStores('delivery fairness between merchants', (store) => {
  let stack: Stack;
  let hanging: WebhookReceiver[] = [];
  let healthy: WebhookReceiver;

  beforeAll(async () => {
    stack = await Stack.start({ store, apiEnv: { WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS) } });
    hanging = await Promise.all(
      Array.from({ length: DESTINATIONS }, () => WebhookReceiver.start(neverAnswer)),
    );
    healthy = await WebhookReceiver.start();
  });

  afterAll(async () => {
    await stack?.stop();
    await Promise.all([...hanging.map((receiver) => receiver.close()), healthy?.close()]);
  });

  it("starts another merchant's first attempt before the next of a merchant holding every slot", async () => {
    const demo = stack.client();
    const serials = await createInstantTerminals(demo, TERMINALS);
    // One after another, SPACING_MS apart: their attempts start, and time out, that far apart, so
    // each slot frees alone and the next attempt to start is the dispatcher's choice alone, not a
    // race between attempts started together.
    for (let i = 0; i < DESTINATIONS; i += 1) {
      await asyncCharge(demo, serials[i % serials.length], hanging[i].url('/hangs'));
      await settle(SPACING_MS);
    }
    const open = () => hanging.reduce((sum, receiver) => sum + receiver.open, 0);
    await poll(
      'every slot held by the hanging destinations',
      async () => (open() >= SLOTS ? true : undefined),
      10_000,
    );

    await asyncCharge(stack.client().as(OTHER_MERCHANT), 'SIM0000003', healthy.url('/other'));
    await healthy.waitFor((received) => received.length > 0, 4 * TIMEOUT_MS);
    const firstOther = healthy.received[0].at;
    const [staged] = await stack.store.rows<{ at: string }>(
      'api',
      "SELECT MIN(created_at) AS at FROM webhook_deliveries WHERE merchant_id = 'other-merchant'",
    );
    // From the moment the other merchant had a delivery due, no attempt of the merchant holding
    // every slot arrived before it: the first slot to free was the other merchant's.
    const arrivals = hanging.flatMap((receiver) => receiver.received.map((r) => r.at));
    expect(arrivals.length).toBeGreaterThanOrEqual(SLOTS);
    expect(arrivals.filter((at) => at > Date.parse(staged.at) && at < firstOther)).toEqual([]);
  }, 120_000);
});
