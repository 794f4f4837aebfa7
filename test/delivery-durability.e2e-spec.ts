import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import {
  API_ENTRY,
  AppProcess,
  LINK_SECRET,
  Stack,
  WebhookReceiver,
  poll,
  sqliteRows,
  type ReceivedRequest,
} from '@tps/testing';

type Delivery = {
  id: string;
  event_id: string;
  event_status: string;
  state: 'pending' | 'delivered' | 'failed';
  attempts: Array<{ n: number; status_code: number | null; error: string | null }>;
  next_attempt_at: string | null;
};

// The real policy at 1/20 of its durations: waits of 100 ms to 3 s, a window of 45 s.
const API_ENV = { WEBHOOK_RETRY_SCALE: '0.05' };

const body = (request: ReceivedRequest) =>
  request.body as { event_id: string; status: string; previous_status: string };

/** A receiver that answers 503 while `failing`, holds requests while `holding`, else 200; it notes what it answered. */
class ScriptedReceiver {
  failing = false;
  holding = false;
  readonly answered: Array<{ eventId: string; status: string; code: number }> = [];
  readonly held: ServerResponse[] = [];
  hook!: WebhookReceiver;

  async start(): Promise<this> {
    this.hook = await WebhookReceiver.start((request, _n, response) => {
      if (this.holding) {
        this.held.push(response);
        return;
      }
      const code = this.failing ? 503 : 200;
      this.answered.push({ eventId: body(request).event_id, status: body(request).status, code });
      response.statusCode = code;
      response.end();
    });
    return this;
  }

  delivered(): Array<{ eventId: string; status: string }> {
    return this.answered.filter((a) => a.code === 200);
  }

  async close(): Promise<void> {
    for (const response of this.held) response.destroy();
    await this.hook.close();
  }
}

describe('webhook delivery across crashes, restarts and slow receivers', () => {
  let stack: Stack;
  let receivers: ScriptedReceiver[];

  beforeEach(async () => {
    stack = await Stack.start({ apiEnv: API_ENV });
    receivers = [];
  });

  afterEach(async () => {
    await Promise.all(receivers.map((r) => r.close()));
    await stack?.stop();
  });

  async function receiver(): Promise<ScriptedReceiver> {
    const started = await new ScriptedReceiver().start();
    receivers.push(started);
    return started;
  }

  async function charge(path: string, url: string): Promise<string> {
    const clientTransactionId = randomUUID();
    const answer = await stack.client().post(path, {
      amount: { iva: 1600, subtotal_iva: 10000, subtotal_iva0: 0 },
      client_transaction_id: clientTransactionId,
      events_webhook_url: url,
    });
    expect(answer.status).toBe(200);
    return clientTransactionId;
  }

  async function deliveries(clientTransactionId: string): Promise<Delivery[]> {
    const answer = await stack
      .client()
      .get<{ items: Delivery[] }>(`/sandbox/deliveries?client_transaction_id=${clientTransactionId}`);
    expect(answer.status).toBe(200);
    return answer.body.items;
  }

  function waitDeliveries(clientTransactionId: string, what: string, ok: (items: Delivery[]) => boolean) {
    return poll(
      what,
      async () => {
        const items = await deliveries(clientTransactionId);
        return ok(items) ? items : undefined;
      },
      20_000,
    );
  }

  /** The event_ids the API stored for the transaction, in order. */
  async function storedEventIds(clientTransactionId: string): Promise<string[]> {
    const rows = await sqliteRows<{ event_id: string }>(
      join(stack.dir, 'api.sqlite'),
      `SELECT e.event_id FROM transaction_events e JOIN transactions t ON t.id = e.transaction_id
       WHERE t.client_transaction_id = ? AND e.status <> 'TERMINAL_ACKNOWLEDGED' ORDER BY e.sequence`,
      [clientTransactionId],
    );
    return rows.map((r) => r.event_id);
  }

  /** Starts the API again on its port and database, as an operator would after a crash. */
  async function restartApi(): Promise<void> {
    stack.api = await AppProcess.start('api', API_ENTRY, {
      PORT: String(stack.api.port),
      HOST: '127.0.0.1',
      DATABASE_URL: `sqlite:${join(stack.dir, 'api.sqlite')}`,
      LINK_SECRET,
      ...API_ENV,
    });
  }

  it("holds a transaction's later events while its first is retried, and lets another transaction's flow", async () => {
    const slow = await receiver();
    const fast = await receiver();
    slow.failing = true;
    const held = await charge('/terminal/v1/SIM0000002/async/charge', slow.hook.url());
    await slow.hook.waitFor((all) => all.length >= 2);

    const flowing = await charge('/terminal/v1/async/charge', fast.hook.url());
    await fast.hook.waitFor((all) => all.some((r) => body(r).status === 'APPROVAL'));
    expect(fast.delivered().map((d) => d.status)).toEqual([
      'CARD_PRESENTED',
      'APPROVAL_REQUESTED',
      'APPROVAL',
    ]);
    expect(new Set(slow.hook.received.map((r) => body(r).status))).toEqual(new Set(['CARD_PRESENTED']));
    const waiting = await waitDeliveries(
      held,
      'all three events in the outbox',
      (items) => items.length === 3,
    );
    expect(waiting.map((d) => d.state)).toEqual(['pending', 'pending', 'pending']);
    expect(waiting[0].attempts.length).toBeGreaterThanOrEqual(2);
    expect(waiting.slice(1).map((d) => d.attempts)).toEqual([[], []]);
    expect((await deliveries(flowing)).map((d) => d.state)).toEqual(['delivered', 'delivered', 'delivered']);

    slow.failing = false;
    await slow.hook.waitFor((all) => all.some((r) => body(r).status === 'APPROVAL'));
    const statuses = slow.hook.received.map((r) => body(r).status);
    expect(statuses.slice(-3)).toEqual(['CARD_PRESENTED', 'APPROVAL_REQUESTED', 'APPROVAL']);
    expect(new Set(statuses.slice(0, -2))).toEqual(new Set(['CARD_PRESENTED']));
    expect(slow.delivered().map((d) => d.eventId)).toEqual(await storedEventIds(held));
  });

  it('resumes pending retries after the API is killed (SIGKILL): every event arrives once, with its event_id', async () => {
    const hook = await receiver();
    hook.failing = true;
    const id = await charge('/terminal/v1/SIM0000002/async/charge', hook.hook.url());
    await waitDeliveries(
      id,
      'three pending deliveries, the first retried',
      (items) => items.length === 3 && items[0].attempts.length >= 1,
    );

    await stack.api.kill();
    hook.failing = false;
    await restartApi();
    await hook.hook.waitFor((all) => all.some((r) => body(r).status === 'APPROVAL'), 20_000);

    const stored = await storedEventIds(id);
    expect(stored).toHaveLength(3);
    expect(hook.delivered().map((d) => d.eventId)).toEqual(stored);
    const items = await waitDeliveries(id, 'all delivered', (all) =>
      all.every((d) => d.state === 'delivered'),
    );
    expect(items.map((d) => d.event_id)).toEqual(stored);
    const first = items[0].attempts;
    expect(first.map((a) => a.n)).toEqual(first.map((_a, i) => i + 1));
    expect(first.slice(0, -1).every((a) => a.status_code === 503)).toBe(true);
    expect(first.at(-1)?.status_code).toBe(200);
  });

  it('makes again, with the same event_id, an attempt in flight when the API is killed; nothing else repeats', async () => {
    const hook = await receiver();
    hook.holding = true;
    const id = await charge('/terminal/v1/SIM0000002/async/charge', hook.hook.url());
    await hook.hook.waitFor((all) => all.length === 1);
    await waitDeliveries(id, 'three deliveries stored', (items) => items.length === 3);

    await stack.api.kill();
    hook.holding = false;
    await restartApi();
    await hook.hook.waitFor((all) => all.some((r) => body(r).status === 'APPROVAL'), 20_000);

    const stored = await storedEventIds(id);
    const received = hook.hook.received.map((r) => body(r).event_id);
    expect(received).toEqual([stored[0], ...stored]);
    const items = await waitDeliveries(id, 'all delivered', (all) =>
      all.every((d) => d.state === 'delivered'),
    );
    expect(items.map((d) => d.attempts.map((a) => [a.n, a.status_code]))).toEqual([
      [[1, 200]],
      [[1, 200]],
      [[1, 200]],
    ]);
  });

  it('leaves an attempt cut by a graceful stop pending and unrecorded, and makes it after the restart', async () => {
    const hook = await receiver();
    hook.holding = true;
    const id = await charge('/terminal/v1/SIM0000002/async/charge', hook.hook.url());
    await hook.hook.waitFor((all) => all.length === 1);
    await waitDeliveries(id, 'three deliveries stored', (items) => items.length === 3);

    const stopped = stack.api;
    await stopped.stop();
    expect(stopped.log).toMatch(/webhook dispatcher stopped: 3 deliveries stay pending/);
    const rows = await sqliteRows<{ state: string; attempt_count: number; attempts: number }>(
      join(stack.dir, 'api.sqlite'),
      `SELECT d.state, d.attempt_count, (SELECT COUNT(*) FROM webhook_delivery_attempts a WHERE a.delivery_id = d.id) AS attempts
       FROM webhook_deliveries d WHERE d.client_transaction_id = ? ORDER BY d.position`,
      [id],
    );
    expect(rows).toEqual(Array(3).fill({ state: 'pending', attempt_count: 0, attempts: 0 }));

    hook.holding = false;
    await restartApi();
    await hook.hook.waitFor((all) => all.some((r) => body(r).status === 'APPROVAL'), 20_000);
    expect(hook.delivered().map((d) => d.eventId)).toEqual(await storedEventIds(id));
  });
});
