import { randomUUID } from 'node:crypto';
import {
  OTHER_MERCHANT,
  createInstantTerminals,
  Stack,
  WebhookReceiver,
  neverAnswer,
  poll,
  type ReceivedRequest,
  type SignedClient,
} from '@tps/testing';
import { describeOnStores } from './stores';

const HANGING_CHARGES = 300;
const OTHER_CHARGES = 20;
/** Terminals added to the demo merchant's fleet, so that its 300 charges run side by side. */
const EXTRA_TERMINALS = 16;
/** WEBHOOK_MAX_IN_FLIGHT_PER_DESTINATION as shipped (contract, webhook delivery, "Fairness"). */
const SHARE = 8;
/**
 * The hanging destination's path, this run's own: a test of another file whose sender still
 * retries to a port the receiver took after it has its requests left out of the counts.
 */
const HANGS = `/hangs/${randomUUID()}`;

interface Event {
  event_id: string;
  status: string;
}

const settle = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** An async charge that the terminal approves; a terminal busy with the last one (TER-003) is asked again. */
async function charge(client: SignedClient, serial: string, webhookUrl: string): Promise<string> {
  const clientTransactionId = randomUUID();
  const body = {
    amount: { iva: 1600, subtotal_iva: 10000, subtotal_iva0: 0 },
    client_transaction_id: clientTransactionId,
    events_webhook_url: webhookUrl,
  };
  for (;;) {
    const answer = await client.post(`/terminal/v1/${serial}/async/charge`, body);
    if (answer.status === 200) return clientTransactionId;
    if (answer.status !== 409 || answer.body.code !== 'TER-003')
      throw new Error(`charge on ${serial}: ${answer.status} ${JSON.stringify(answer.body)}`);
    await settle(5);
  }
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

describeOnStores('delivery fairness: one merchant hanging at its receiver', (store) => {
  let stack: Stack;
  let hanging: WebhookReceiver;
  let healthy: WebhookReceiver;

  beforeAll(async () => {
    // The API's defaults as shipped: each attempt to a receiver that never answers lasts 10 s.
    stack = await Stack.start({ store });
    hanging = await WebhookReceiver.start(neverAnswer);
    healthy = await WebhookReceiver.start();
  });

  afterAll(async () => {
    // The API first: it cuts the attempts still hanging, then the receivers close.
    await stack?.stop();
    await Promise.all([hanging?.close(), healthy?.close()]);
  });

  it(`delivers another merchant's APPROVAL webhooks with p99 under 1 s while ${HANGING_CHARGES} transactions hang`, async () => {
    const demo = stack.client();
    const serials = ['SIM0000001', 'SIM0000002', ...(await createInstantTerminals(demo, EXTRA_TERMINALS))];
    let next = 0;
    await Promise.all(
      serials.map(async (serial) => {
        while (next < HANGING_CHARGES) {
          next += 1;
          await charge(demo, serial, hanging.url(HANGS));
        }
      }),
    );
    // Every event of the 300 is in the outbox: 300 first deliveries hang, the later ones wait behind them.
    await poll(
      "the hanging merchant's events in the outbox",
      async () => {
        const [row] = await stack.store.rows<{ n: number }>(
          'api',
          `SELECT COUNT(*) AS n FROM webhook_deliveries WHERE merchant_id = 'demo-merchant'`,
        );
        return row.n >= HANGING_CHARGES * 3 ? true : undefined;
      },
      10_000,
    );
    // 300 first deliveries are due to the hanging destination: it holds exactly its share in flight.
    await poll(
      'the hanging destination to hold its share',
      async () => (hanging.openAt(HANGS) >= SHARE ? true : undefined),
      10_000,
    );
    expect(hanging.mostOpenAt(HANGS)).toBe(SHARE);

    const other = stack.client().as(OTHER_MERCHANT);
    for (let i = 0; i < OTHER_CHARGES; i++) await charge(other, 'SIM0000003', healthy.url('/other'));
    const approvals = (): ReceivedRequest[] =>
      healthy.received.filter((r) => r.path === '/other' && (r.body as Event).status === 'APPROVAL');
    // Bounded: a starved delivery shows as a missing arrival, not as a test that never ends.
    await healthy.waitFor(() => approvals().length >= OTHER_CHARGES, 15_000).catch(() => undefined);

    const stored = new Map(
      (
        await stack.store.rows<{ event_id: string; created_at: string }>(
          'api',
          `SELECT event_id, created_at FROM webhook_deliveries WHERE merchant_id = 'other-merchant'`,
        )
      ).map((row) => [row.event_id, Date.parse(row.created_at)]),
    );
    const arrivals = approvals();
    // APPROVAL stored (its outbox row, millisecond precise) to APPROVAL received.
    const latencies = arrivals.map((r) => r.at - (stored.get((r.body as Event).event_id) ?? NaN));
    expect({ arrived: arrivals.length, allTimed: latencies.every(Number.isFinite) }).toEqual({
      arrived: OTHER_CHARGES,
      allTimed: true,
    });
    expect(percentile(latencies, 99)).toBeLessThan(1000);
    // Never more than its share, through the timeouts and retries of the whole run.
    expect(hanging.mostOpenAt(HANGS)).toBe(SHARE);
  });
});
