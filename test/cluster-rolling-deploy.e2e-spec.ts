import { randomUUID } from 'node:crypto';
import { Stack, WebhookReceiver, poll, type SignedClient } from '@tps/testing';
import { amountOf, type Json } from './payment-helpers';

/** Short, so that the wait for a delivery written without a lease fits a suite. */
const LEASE_MS = 1000;
const WEBHOOK_TIMEOUT_MS = 1000;
/** How long a delivery that was never leased waits past its due attempt (docs/contract.md). */
const UNLEASED_AFTER_MS = LEASE_MS + WEBHOOK_TIMEOUT_MS;

const iso = (ms: number): string => new Date(ms).toISOString();

async function asyncCharge(client: SignedClient, url: string): Promise<string> {
  const id = randomUUID();
  const answer = await client.post<Json>('/terminal/v1/SIM0000001/async/charge', {
    amount: amountOf(10_000),
    client_transaction_id: id,
    events_webhook_url: url,
  });
  expect(answer.status).toBe(200);
  return id;
}

/**
 * A rolling deploy (docs/contract.md, "Rolling deploys"): while replicas of the version before
 * leased deliveries still run, they write their deliveries without a lease and attempt them
 * themselves. The test writes such a delivery as that version does (the columns it knows), and
 * checks that the replicas of this version leave it to its writer for as long as that one, alive,
 * would take to attempt and record it, and then send it once.
 */
describe('a delivery written by a replica of the version before leases [postgres]', () => {
  let stack: Stack;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    stack = await Stack.start({
      store: 'postgres',
      replicas: 2,
      apiEnv: { DELIVERY_LEASE_MS: String(LEASE_MS), WEBHOOK_TIMEOUT_MS: String(WEBHOOK_TIMEOUT_MS) },
    });
    receiver = await WebhookReceiver.start();
  }, 60_000);

  afterAll(async () => {
    await stack?.stop();
    await receiver?.close();
  });

  it('is left to its writer until its attempt is overdue, then taken over and sent once', async () => {
    const id = await asyncCharge(stack.client(), receiver.url('/current'));
    await poll(
      'the charge delivered',
      async () => {
        const rows = await stack.store.rows<{ state: string }>(
          'api',
          'SELECT state FROM webhook_deliveries WHERE client_transaction_id = ?',
          [id],
        );
        return rows.length === 3 && rows.every((row) => row.state === 'delivered') ? true : undefined;
      },
      10_000,
    );

    // The older version's write: its event's delivery once more, due now, without a lease, its
    // body in its payload.
    const dueAt = Date.now();
    await stack.store.execute(
      'api',
      'UPDATE transactions SET delivery_count = delivery_count + 1 WHERE client_transaction_id = ?',
      [id],
    );
    await stack.store.execute(
      'api',
      `INSERT INTO webhook_deliveries (id, merchant_id, transaction_id, position, client_transaction_id,
         event_id, event_status, url, payload, state, attempt_count, next_attempt_at, created_at)
       SELECT ?, d.merchant_id, d.transaction_id, t.delivery_count, d.client_transaction_id, d.event_id,
         d.event_status, ?, e.envelope, 'pending', 0, ?, ?
       FROM webhook_deliveries d JOIN transactions t ON t.id = d.transaction_id
       JOIN transaction_events e ON e.event_id = d.event_id
       WHERE d.client_transaction_id = ? AND d.position = 3`,
      [randomUUID(), receiver.url('/older'), iso(dueAt), iso(dueAt), id],
    );

    const older = () => receiver.received.filter((request) => request.path === '/older');
    await receiver.waitFor(() => older().length > 0, UNLEASED_AFTER_MS + 10_000);
    // Not before its writer, alive, would have attempted and recorded it.
    expect(older()[0].at - dueAt).toBeGreaterThanOrEqual(UNLEASED_AFTER_MS);
    // Its payload, byte for byte: the body this version sends for a row written the older way.
    const [written] = await stack.store.rows<{ payload: string }>(
      'api',
      "SELECT payload FROM webhook_deliveries WHERE client_transaction_id = ? AND url LIKE '%/older'",
      [id],
    );
    expect(older()[0].raw).toBe(written.payload);
    const [row] = await poll(
      'the delivery recorded',
      async () => {
        const rows = await stack.store.rows<{ state: string; lease_owner: string | null }>(
          'api',
          "SELECT state, lease_owner FROM webhook_deliveries WHERE client_transaction_id = ? AND url LIKE '%/older'",
          [id],
        );
        return rows[0]?.state === 'delivered' ? rows : undefined;
      },
      5_000,
    );
    expect(row.lease_owner).not.toBeNull();
    // Past a few more claims: sent once.
    await new Promise((resolve) => setTimeout(resolve, 3 * LEASE_MS));
    expect(older()).toHaveLength(1);
  });
});
