import { OTHER_MERCHANT, Stack, WebhookReceiver, neverAnswer, poll, type SignedClient } from '@tps/testing';
import { describeOnStores } from './stores';

/** The service's print callbacks in flight at once (MAX_CONCURRENT_ATTEMPTS, slots of their own). */
const SLOTS = 64;
/**
 * The free slots kept from a merchant with this many in flight: one destination's share
 * (WEBHOOK_MAX_IN_FLIGHT_PER_DESTINATION as shipped).
 */
const RESERVE = 8;
/** More destinations than slots, one job each: once the abuser holds all it may, the rest wait. */
const DESTINATIONS = 80;
/**
 * Each callback to a receiver that never answers lasts this long: longer than the abuser's jobs
 * and the other merchant's take, so that no slot frees by a timeout before the other's callback.
 */
const TIMEOUT_MS = 15_000;
const SPACING_MS = 20;
const METRICS_TOKEN = 'print-fairness-metrics-token-01';

const settle = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** A Cloud-form print job on `serial` that calls `webhookUrl` back; its id. */
async function print(client: SignedClient, serial: string, webhookUrl: string): Promise<string> {
  const created = await client.post<{ printJobId: string }>(`/terminal/v1/${serial}/print`, {
    commands: [{ type: 'text', value: 'fairness' }],
    webhookUrl,
  });
  expect(created.status).toBe(202);
  return created.body.printJobId;
}

/**
 * Contract "Webhook delivery", Fairness, for print callbacks: at most 64 in
 * flight, a free slot going to the merchant with the fewest in flight, and none of the last
 * RESERVE free to a merchant with that many. One merchant whose callbacks hang on more
 * destinations than there are slots holds every slot but the reserve; another merchant's callback
 * then starts at once, in the reserve, not in a slot freed by one of the abuser's timeouts.
 */
describeOnStores('print callback fairness between merchants', (store) => {
  let stack: Stack;
  let hanging: WebhookReceiver[] = [];
  let healthy: WebhookReceiver;
  const open = () => hanging.reduce((sum, receiver) => sum + receiver.open, 0);
  const arrivals = () =>
    hanging.flatMap((receiver) => receiver.received.map((r) => r.at)).sort((a, b) => a - b);
  /** The abuser's callbacks arrived, and still under way, when the other merchant's arrived. */
  let atOthers: { arrived: number; open: number } | undefined;

  beforeAll(async () => {
    stack = await Stack.start({
      store,
      apiEnv: { PRINT_CALLBACK_TIMEOUT_MS: String(TIMEOUT_MS), METRICS_TOKEN },
    });
    hanging = await Promise.all(
      Array.from({ length: DESTINATIONS }, () => WebhookReceiver.start(neverAnswer)),
    );
    healthy = await WebhookReceiver.start((_request, n, response) => {
      if (n === 1) atOthers = { arrived: arrivals().length, open: open() };
      response.end();
    });
  });

  afterAll(async () => {
    await stack?.stop();
    await Promise.all([...hanging.map((receiver) => receiver.close()), healthy?.close()]);
  });

  it("keeps every print callback slot but the reserve from a merchant whose receivers hang, and starts another merchant's at once", async () => {
    let mostOpen = 0;
    const sampler = setInterval(() => (mostOpen = Math.max(mostOpen, open())), 10);
    try {
      // One after another, SPACING_MS apart: each callback that may start has started before the
      // next job, so what the abuser holds is the service's choice alone.
      for (let i = 0; i < DESTINATIONS; i += 1) {
        await print(stack.client(), 'SIM0000002', hanging[i].url('/hangs'));
        await settle(SPACING_MS);
      }
      await poll(
        'every slot but the reserve held by the hanging destinations',
        async () => (open() >= SLOTS - RESERVE ? true : undefined),
        10_000,
      );

      const other = stack.client().as(OTHER_MERCHANT);
      await print(other, 'SIM0000003', healthy.url('/other'));
      await healthy.waitFor((received) => received.length > 0, 2 * TIMEOUT_MS);
      // The abuser, with more waiting than it holds, held its cap and no more; the other
      // merchant's callback came while every one of the abuser's was still under way.
      expect(atOthers).toEqual({ arrived: SLOTS - RESERVE, open: SLOTS - RESERVE });

      // The abuser's callbacks time out: each frees its slot (counted), and the abuser's next
      // takes it, never more than its cap.
      await poll(
        "a slot freed by the abuser's timeout given to its next callback",
        async () => (arrivals().length > SLOTS - RESERVE ? true : undefined),
        2 * TIMEOUT_MS,
      );
      expect(mostOpen).toBe(SLOTS - RESERVE);
      const metrics = await (
        await fetch(`${stack.apiUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
      ).text();
      expect(
        Number(/^tps_print_callback_timeouts_total(?:\{[^}]*\})? (\d+)/m.exec(metrics)?.[1]),
      ).toBeGreaterThan(0);
    } finally {
      clearInterval(sampler);
    }
  }, 120_000);
});
