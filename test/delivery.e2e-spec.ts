import { randomUUID } from 'node:crypto';
import { verifyWebhook } from '@tps/delivery';
import {
  OTHER_MERCHANT,
  Stack,
  WebhookReceiver,
  answerWith,
  poll,
  type ReceivedRequest,
  type Responder,
} from '@tps/testing';
import { describeOnStores } from './stores';

type Delivery = {
  id: string;
  event_id: string;
  client_transaction_id: string;
  event_status: string;
  state: 'pending' | 'delivered' | 'failed';
  attempts: Array<{
    n: number;
    at: string;
    status_code: number | null;
    error: string | null;
    latency_ms: number;
  }>;
  next_attempt_at: string | null;
};

// The real policy at 1/500 of its durations: waits of 4 ms to 120 ms, a window of 1.8 s.
const RETRY_SCALE = 0.002;
const TIMEOUT_MS = 200;

const eventIdOf = (request: ReceivedRequest): string => (request.body as { event_id: string }).event_id;
const statusOf = (request: ReceivedRequest): string => (request.body as { status: string }).status;

describeOnStores('transaction webhook delivery', (store) => {
  let stack: Stack;
  const receivers: WebhookReceiver[] = [];

  beforeAll(async () => {
    stack = await Stack.start({
      store,
      apiEnv: { WEBHOOK_RETRY_SCALE: String(RETRY_SCALE), WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS) },
    });
  });

  afterAll(async () => {
    await Promise.all(receivers.map((r) => r.close()));
    await stack?.stop();
  });

  async function receiver(responder?: Responder): Promise<WebhookReceiver> {
    const started = await WebhookReceiver.start(responder);
    receivers.push(started);
    return started;
  }

  /** An async charge on SIM0000002 whose events go to `url`; waits while the terminal is busy. */
  async function charge(url: string): Promise<string> {
    const clientTransactionId = randomUUID();
    const body = {
      amount: { iva: 1600, subtotal_iva: 10000, subtotal_iva0: 0 },
      client_transaction_id: clientTransactionId,
      events_webhook_url: url,
    };
    await poll(
      'the terminal to take the charge',
      async () => {
        const answer = await stack.client().post('/terminal/v1/SIM0000002/async/charge', body);
        if (answer.status === 409 && answer.body.code === 'TER-003') return undefined;
        expect(answer.status).toBe(200);
        return answer;
      },
      10_000,
    );
    return clientTransactionId;
  }

  async function deliveries(clientTransactionId: string, client = stack.client()): Promise<Delivery[]> {
    const answer = await client.get<{ items: Delivery[] }>(
      `/sandbox/deliveries?client_transaction_id=${clientTransactionId}`,
    );
    expect(answer.status).toBe(200);
    return answer.body.items;
  }

  /** Waits until the transaction's three webhooks are settled, and answers them. */
  function settled(clientTransactionId: string): Promise<Delivery[]> {
    return poll(
      'every delivery to settle',
      async () => {
        const items = await deliveries(clientTransactionId);
        return items.length === 3 && items.every((d) => d.state !== 'pending') ? items : undefined;
      },
      20_000,
    );
  }

  it('retries 503, 503, then delivers once on the third attempt, with one event_id, all in the log', async () => {
    const hook = await receiver(answerWith(503, 503, 200));
    const id = await charge(hook.url());
    const items = await settled(id);

    expect(items.map((d) => [d.event_status, d.state])).toEqual([
      ['CARD_PRESENTED', 'delivered'],
      ['APPROVAL_REQUESTED', 'delivered'],
      ['APPROVAL', 'delivered'],
    ]);
    for (const item of items) {
      // Contract §11's shape, exactly: nothing more, nothing less.
      expect(Object.keys(item).sort()).toEqual(
        [
          'attempts',
          'client_transaction_id',
          'event_id',
          'event_status',
          'id',
          'next_attempt_at',
          'state',
        ].sort(),
      );
      for (const attempt of item.attempts) {
        expect(Object.keys(attempt).sort()).toEqual(['at', 'error', 'latency_ms', 'n', 'status_code']);
      }
      expect(item.client_transaction_id).toBe(id);
    }
    const [first] = items;
    expect(first.attempts.map((a) => [a.n, a.status_code, a.error])).toEqual([
      [1, 503, null],
      [2, 503, null],
      [3, 200, null],
    ]);
    for (const attempt of first.attempts) {
      expect(new Date(attempt.at).toISOString()).toBe(attempt.at);
      expect(attempt.latency_ms).toBeGreaterThanOrEqual(0);
    }
    expect(first.next_attempt_at).toBeNull();
    const cardPresented = hook.received.filter((r) => statusOf(r) === 'CARD_PRESENTED');
    expect(cardPresented).toHaveLength(3);
    expect(new Set(cardPresented.map(eventIdOf))).toEqual(new Set([first.event_id]));
    expect(hook.received.map(statusOf)).toEqual([
      'CARD_PRESENTED',
      'CARD_PRESENTED',
      'CARD_PRESENTED',
      'APPROVAL_REQUESTED',
      'APPROVAL',
    ]);
    expect(items.slice(1).map((d) => d.attempts.map((a) => a.status_code))).toEqual([[200], [200]]);
  });

  it.each([400, 404])(
    'makes exactly one attempt at a %i receiver, and fails the delivery',
    async (status) => {
      const hook = await receiver(answerWith(status));
      const id = await charge(hook.url());
      const items = await settled(id);

      expect(items.map((d) => d.state)).toEqual(['failed', 'failed', 'failed']);
      for (const delivery of items) {
        expect(delivery.attempts.map((a) => a.status_code)).toEqual([status]);
        expect(delivery.next_attempt_at).toBeNull();
      }
      expect(hook.received).toHaveLength(3);
    },
  );

  it('stops after 10 attempts at a receiver that keeps answering 503', async () => {
    const hook = await receiver(answerWith(503));
    const id = await charge(hook.url());
    const items = await settled(id);

    for (const delivery of items) {
      expect(delivery.state).toBe('failed');
      expect(delivery.attempts.map((a) => a.n)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    }
    expect(hook.received).toHaveLength(30);
  });

  it('abandons a receiver that never answers within the window: no attempt starts later than 15 (scaled) minutes after the first', async () => {
    const hook = await receiver(() => undefined);
    const id = await charge(hook.url());
    const items = await settled(id);
    const windowMs = 15 * 60_000 * RETRY_SCALE;

    for (const delivery of items) {
      expect(delivery.state).toBe('failed');
      expect(delivery.attempts.every((a) => a.error === 'timeout' && a.status_code === null)).toBe(true);
      // Ten attempts of 200 ms each cannot fit in 1.8 s: the window ends the delivery first.
      expect(delivery.attempts.length).toBeLessThan(10);
      const first = Date.parse(delivery.attempts[0].at);
      for (const attempt of delivery.attempts)
        expect(Date.parse(attempt.at) - first).toBeLessThanOrEqual(windowMs);
    }
  });

  it('redelivers an event as a fresh delivery with the same event_id, for its merchant only', async () => {
    const hook = await receiver();
    const id = await charge(hook.url());
    const [first] = await settled(id);
    expect(first.state).toBe('delivered');

    const other = await stack.client().as(OTHER_MERCHANT).post(`/sandbox/deliveries/${first.id}/redeliver`);
    expect(other.status).toBe(404);
    expect(other.body).toMatchObject({ type: 'NOT_FOUND', code: 'NF-004' });
    const unknown = await stack.client().post(`/sandbox/deliveries/${randomUUID()}/redeliver`);
    expect(unknown.body).toMatchObject({ code: 'NF-004' });
    expect((await stack.client().post('/sandbox/deliveries/not-an-id/redeliver')).body).toMatchObject({
      code: 'NF-004',
    });

    const again = await stack.client().post<Delivery>(`/sandbox/deliveries/${first.id}/redeliver`);
    expect(again.status).toBe(201);
    expect(again.body).toMatchObject({
      event_id: first.event_id,
      client_transaction_id: id,
      event_status: 'CARD_PRESENTED',
      state: 'pending',
      attempts: [],
    });
    expect(again.body.id).not.toBe(first.id);
    await hook.waitFor((all) => all.filter((r) => eventIdOf(r) === first.event_id).length === 2);
    const resent = hook.received.filter((r) => eventIdOf(r) === first.event_id);
    expect(resent[1].raw).toBe(resent[0].raw);

    const items = await poll(
      'the redelivery to be recorded',
      async () => {
        const all = await deliveries(id);
        return all.length === 4 && all[3].state === 'delivered' ? all : undefined;
      },
      10_000,
    );
    expect(items[3]).toMatchObject({ id: again.body.id, event_id: first.event_id, state: 'delivered' });
    expect(await deliveries(id, stack.client().as(OTHER_MERCHANT))).toEqual([]);
  });

  it('signs every delivery with the Standard Webhooks headers once the merchant has a secret', async () => {
    const made = await stack.client().post<{ secret: string }>('/sandbox/webhook-secret');
    expect(made.status).toBe(200);
    const { secret } = made.body;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]+$/);
    const rotated = await stack.client().post<{ secret: string }>('/sandbox/webhook-secret');
    expect(rotated.body.secret).not.toBe(secret);

    const hook = await receiver();
    await settled(await charge(hook.url()));
    // At least once (contract §6): on a loaded machine an answer may outlast the 200 ms timeout and
    // the event come again; each of the three events arrives, and every request is signed.
    expect(new Set(hook.received.map(eventIdOf)).size).toBe(3);
    for (const request of hook.received) {
      const headers = {
        'webhook-id': request.headers['webhook-id'] as string,
        'webhook-timestamp': request.headers['webhook-timestamp'] as string,
        'webhook-signature': request.headers['webhook-signature'] as string,
      };
      expect(headers['webhook-id']).toBe(eventIdOf(request));
      expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
      const now = Math.floor(request.at / 1000);
      expect(verifyWebhook(rotated.body.secret, headers, request.raw, now)).toBe(true);
      expect(verifyWebhook(secret, headers, request.raw, now)).toBe(false);
    }

    const removed = await stack.client().delete('/sandbox/webhook-secret');
    expect(removed.status).toBe(204);
    const unsigned = await receiver();
    const delivered = await settled(await charge(unsigned.url()));
    // Checked over the three deliveries made, not over whatever arrived: none arriving is a failure.
    expect(delivered.map((d) => d.state)).toEqual(['delivered', 'delivered', 'delivered']);
    // At least once: an attempt timed out after its answer came may arrive twice, with one event_id.
    expect([...new Set(unsigned.received.map(eventIdOf))]).toEqual(delivered.map((d) => d.event_id));
    for (const request of unsigned.received) {
      expect(request.headers).not.toHaveProperty('webhook-signature');
      expect(request.headers).not.toHaveProperty('webhook-id');
    }
  });

  it('lists deliveries only by a valid client_transaction_id', async () => {
    const missing = await stack.client().get('/sandbox/deliveries');
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ code: 'PAR-002', param: 'client_transaction_id' });
    const bad = await stack.client().get('/sandbox/deliveries?client_transaction_id=nope');
    expect(bad.body).toMatchObject({ code: 'PAR-002', param: 'client_transaction_id' });
    expect(await deliveries(randomUUID())).toEqual([]);
  });
  /** Each delivery row of the transaction, with its payload and its event's stored envelope. */
  function storedBodies(
    clientTransactionId: string,
  ): Promise<Array<{ id: string; event_id: string; payload: string; envelope: string }>> {
    return stack.store.rows(
      'api',
      'SELECT d.id AS id, d.event_id AS event_id, d.payload AS payload, e.envelope AS envelope ' +
        'FROM webhook_deliveries d JOIN transaction_events e ON e.event_id = d.event_id ' +
        'WHERE d.client_transaction_id = ? ORDER BY d.position',
      [clientTransactionId],
    );
  }

  /** The bodies received for the transaction, each with its event id. */
  async function receivedBodies(
    target: WebhookReceiver,
    clientTransactionId: string,
  ): Promise<ReceivedRequest[]> {
    return target
      .waitFor(
        (all) =>
          all.filter(
            (r) =>
              (r.body as { client_transaction_id: string }).client_transaction_id === clientTransactionId,
          ).length >= 3,
      )
      .then(() =>
        target.received.filter(
          (r) => (r.body as { client_transaction_id: string }).client_transaction_id === clientTransactionId,
        ),
      );
  }

  it("stores each body once, in its event, and sends the event's stored envelope byte for byte", async () => {
    const target = await receiver();
    const id = await charge(target.url('/once'));
    const received = await receivedBodies(target, id);
    const stored = await storedBodies(id);
    expect(stored).toHaveLength(3);
    // One process (SQLite), or every live replica of this version: no copy beside the event.
    expect(stored.map((row) => row.payload)).toEqual(['', '', '']);
    for (const request of received) {
      expect(request.raw).toBe(stored.find((row) => row.event_id === eventIdOf(request))?.envelope);
    }
  });

  // Replicas of two versions share only a PostgreSQL database.
  if (store === 'postgres')
    it('writes the body into the delivery while a replica of the version before is alive, and fills in the pending ones', async () => {
      const target = await receiver();
      const earlier = await charge(target.url('/earlier'));
      await receivedBodies(target, earlier);
      const [event] = await storedBodies(earlier);
      // A pending delivery stored without its body, held by a process that is gone: the older
      // replica could take it over, and must find its body in it.
      const held = randomUUID();
      await stack.store.execute(
        'api',
        'INSERT INTO webhook_deliveries (id, merchant_id, transaction_id, position, client_transaction_id, event_id, ' +
          'event_status, url, payload, state, attempt_count, next_attempt_at, created_at, lease_owner, lease_until) ' +
          "SELECT ?, merchant_id, transaction_id, 100, client_transaction_id, event_id, event_status, url, '', 'pending', 0, " +
          "'2999-01-01T00:00:00.000Z', created_at, 'gone/000000000000', '2999-01-01T00:00:00.000Z' FROM webhook_deliveries WHERE id = ?",
        [held, event.id],
      );
      // The row a replica of the version before keeps: it knows nothing of bodies in events.
      await stack.store.execute(
        'api',
        "INSERT INTO api_replicas (id, epoch, started_at, heartbeat_at) VALUES ('older-version', 1, now(), now())",
      );
      try {
        await poll(
          'the pending delivery to carry its body',
          async () => {
            const [row] = await stack.store.rows<{ payload: string }>(
              'api',
              'SELECT payload FROM webhook_deliveries WHERE id = ?',
              [held],
            );
            return row.payload === event.envelope ? true : undefined;
          },
          10_000,
        );
        const during = await charge(target.url('/during'));
        const received = await receivedBodies(target, during);
        const stored = await storedBodies(during);
        for (const row of stored) expect(row.payload).toBe(row.envelope);
        for (const request of received) {
          expect(request.raw).toBe(stored.find((row) => row.event_id === eventIdOf(request))?.payload);
        }
      } finally {
        await stack.store.execute('api', "DELETE FROM api_replicas WHERE id = 'older-version'");
        await stack.store.execute('api', 'DELETE FROM webhook_deliveries WHERE id = ?', [held]);
      }
      // Gone: bodies are left to the events again.
      await poll(
        'a delivery stored without its body again',
        async () => {
          const after = await charge(target.url('/after'));
          await receivedBodies(target, after);
          const stored = await storedBodies(after);
          return stored.every((row) => row.payload === '') ? true : undefined;
        },
        15_000,
      );
    });
});
