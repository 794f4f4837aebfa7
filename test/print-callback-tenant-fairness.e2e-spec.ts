import { OTHER_MERCHANT, Stack, WebhookReceiver, neverAnswer, poll, type SignedClient } from '@tps/testing';
import { describeOnStores } from './stores';

/** The service's print callbacks in flight at once (MAX_CONCURRENT_ATTEMPTS, slots of their own). */
const SLOTS = 64;
/** More destinations than slots, one job each: once every slot is taken, the rest wait. */
const DESTINATIONS = 80;
/** Each callback to a receiver that never answers lasts this long: longer than the jobs take. */
const TIMEOUT_MS = 5000;
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
 * Contract "Tenants of a hosted sandbox", fair delivery, for print callbacks: at most 64 in
 * flight, and a free slot goes to the merchant with the fewest in flight. One merchant whose
 * callbacks hang on more destinations than there are slots holds them all; another merchant's
 * callback then goes before that merchant's next.
 */
describeOnStores('print callback fairness between merchants', (store) => {
  let stack: Stack;
  let hanging: WebhookReceiver[] = [];
  let healthy: WebhookReceiver;

  beforeAll(async () => {
    stack = await Stack.start({
      store,
      apiEnv: { PRINT_CALLBACK_TIMEOUT_MS: String(TIMEOUT_MS), METRICS_TOKEN },
    });
    hanging = await Promise.all(
      Array.from({ length: DESTINATIONS }, () => WebhookReceiver.start(neverAnswer)),
    );
    healthy = await WebhookReceiver.start();
  });

  afterAll(async () => {
    await stack?.stop();
    await Promise.all([...hanging.map((receiver) => receiver.close()), healthy?.close()]);
  });

  it("holds print callbacks to 64 in flight, and starts another merchant's before the next of a merchant holding them all", async () => {
    const open = () => hanging.reduce((sum, receiver) => sum + receiver.open, 0);
    let mostOpen = 0;
    const sampler = setInterval(() => (mostOpen = Math.max(mostOpen, open())), 10);
    try {
      // One after another, SPACING_MS apart: their callbacks start, and time out, that far apart,
      // so each slot frees alone and what starts next is the service's choice alone.
      for (let i = 0; i < DESTINATIONS; i += 1) {
        await print(stack.client(), 'SIM0000002', hanging[i].url('/hangs'));
        await settle(SPACING_MS);
      }
      await poll(
        'every slot held by the hanging destinations',
        async () => (open() >= SLOTS ? true : undefined),
        10_000,
      );

      const other = stack.client().as(OTHER_MERCHANT);
      const otherJob = await print(other, 'SIM0000003', healthy.url('/other'));
      await poll(
        "the other merchant's job stored as printed",
        async () => {
          const read = await other.get<{ status: string }>(`/terminal/v1/SIM0000003/print/${otherJob}`);
          return read.body.status === 'COMPLETED' ? true : undefined;
        },
        TIMEOUT_MS,
      );
      const arrivals = () =>
        hanging.flatMap((receiver) => receiver.received.map((r) => r.at)).sort((a, b) => a - b);
      // The premise: the other merchant's callback was due while every slot was still held.
      expect(arrivals()).toHaveLength(SLOTS);

      await healthy.waitFor((received) => received.length > 0, 4 * TIMEOUT_MS);
      await poll(
        'a slot given to the waiting merchant',
        async () => (arrivals().length > SLOTS ? true : undefined),
        4 * TIMEOUT_MS,
      );
      // The first slot to free went to the other merchant: its callback came before the 65th.
      expect(healthy.received[0].at).toBeLessThanOrEqual(arrivals()[SLOTS]);
      expect(mostOpen).toBeLessThanOrEqual(SLOTS);
      // The slots freed by timeouts, counted.
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
