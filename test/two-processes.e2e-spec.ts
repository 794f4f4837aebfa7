import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import { EVENTS_RECEIPT, LinkPeer, TERMINAL_UPLINK_SIDE, UPLINK_PATH, type LinkEvent } from '@tps/link';
import {
  API_ENTRY,
  AppProcess,
  LINK_SECRET,
  poll,
  ShareHolder,
  SignedClient,
  SIMULATOR_ENTRY,
  Stack,
  TestStore,
  WebhookReceiver,
  type ReceivedRequest,
} from '@tps/testing';
import { amountOf, type Json } from './payment-helpers';
import { describeOnStores } from './stores';

const CHARGE = '/terminal/v1/SIM0000002/sync/charge';
const REFUND = '/terminal/v1/SIM0000002/sync/refund';
/** The real retry policy at 1/50 of its durations: retries 40 ms, 80 ms, 160 ms… apart. */
const RETRY_SCALE = '0.02';

/**
 * A terminal's link, spoken by the test, to one API process: the test holds the fleet share there
 * (contract §13, one simulator per share), then opens the terminal's uplink under it.
 */
async function linkAs(apiPort: number, serial: string): Promise<{ peer: LinkPeer; close: () => void }> {
  const holder = await ShareHolder.link(apiPort);
  const socket = new WebSocket(`ws://127.0.0.1:${apiPort}${UPLINK_PATH}`, {
    headers: holder.uplinkHeaders(serial),
  });
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  const close = (): void => {
    socket.close();
    holder.close();
  };
  const peer = new LinkPeer(socket, {
    side: TERMINAL_UPLINK_SIDE,
    onRequest: () => Promise.resolve(undefined),
  });
  return { peer, close };
}

/**
 * The events of a transaction the terminal ran, as they travel up its link: envelope, outcome
 * and, on the acknowledgement, the order (from the terminal's own store).
 */
async function linkEventsOf(store: TestStore, clientTransactionId: string): Promise<LinkEvent[]> {
  const rows = await store.rows<{ envelope: string; outcome: string | null; order: string }>(
    'terminal',
    `SELECT e.envelope AS envelope, e.outcome AS outcome, t."order" AS "order" FROM terminal_events e
     JOIN terminal_transactions t ON t.key = e.transaction_key WHERE t.key = ? ORDER BY e.seq`,
    [`demo-merchant:${clientTransactionId}`],
  );
  return rows.map((row, n) => ({
    event: JSON.parse(row.envelope) as LinkEvent['event'],
    ...(row.outcome === null ? {} : { outcome: JSON.parse(row.outcome) as LinkEvent['outcome'] }),
    ...(n === 0 ? { order: JSON.parse(row.order) as LinkEvent['order'] } : {}),
  }));
}

/** The same events as another transaction: every id (transaction, events, reference) new. */
function asNewTransaction(links: LinkEvent[], webhookUrl: string): LinkEvent[] {
  const last = links.at(-1)?.outcome;
  const oldReference =
    last?.kind === 'acquirer' ? last.response.rawResponse.transaction_reference : undefined;
  const renames: Array<[string, string]> = [
    [links[0].event.client_transaction_id, randomUUID()],
    ...links.map((link): [string, string] => [link.event.event_id, randomUUID()]),
    ...(oldReference ? [[oldReference, randomUUID()] as [string, string]] : []),
  ];
  let text = JSON.stringify(links);
  for (const [from, to] of renames) text = text.split(from).join(to);
  const renamed = JSON.parse(text) as LinkEvent[];
  if (renamed[0].order) renamed[0].order.eventsWebhookUrl = webhookUrl;
  return renamed;
}

/**
 * Contract §13, "several processes, one database": two API processes on one SQLite file (WAL),
 * each with a simulator linked to it. Idempotency and follow-up limits rest on the database.
 */
describeOnStores('two API processes sharing one database', (store) => {
  let stack: Stack;
  let secondApi: AppProcess;
  let secondSimulator: AppProcess;
  let clients: [SignedClient, SignedClient];

  beforeAll(async () => {
    stack = await Stack.start({ store, apiEnv: { WEBHOOK_RETRY_SCALE: RETRY_SCALE } });
    secondApi = await AppProcess.start('api-2', API_ENTRY, {
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: await stack.store.url('api'),
      LINK_SECRET,
      WEBHOOK_RETRY_SCALE: RETRY_SCALE,
      // One key for the processes of one database (contract, "Secrets at rest"): the first one's.
      SECRETS_KEY_FILE: join(stack.dir, 'api-secrets.key'),
    });
    secondSimulator = await AppProcess.start('terminal-simulator-2', SIMULATOR_ENTRY, {
      PORT: '0',
      HOST: '127.0.0.1',
      API_URL: secondApi.url,
      DATABASE_URL: await stack.store.url('terminal-2'),
      LINK_SECRET,
      RECONNECT_MIN_MS: '20',
    });
    await poll(
      'the second simulator to link',
      async () => {
        const health = (await (await fetch(`${secondApi.url}/health`)).json()) as {
          linked_terminals: number;
        };
        return health.linked_terminals >= 3 ? true : undefined;
      },
      10_000,
    );
    clients = [stack.client(), new SignedClient(secondApi.url)];
    // Each API tells its own simulator; both simulators host SIM0000002.
    for (const client of clients) {
      expect((await client.patch('/sandbox/terminals/SIM0000002', { pace: 'instant' })).status).toBe(200);
    }
  });

  afterAll(async () => {
    await secondSimulator?.stop();
    await secondApi?.stop();
    await stack?.stop();
  });

  /** Sends to both processes at once; a busy terminal (one operation at a time) is tried again. */
  async function both(path: string, body: Json): Promise<Array<{ status: number; body: Json }>> {
    return Promise.all(
      clients.map((client) =>
        poll(
          `${path} on both processes`,
          async () => {
            const response = await client.post<Json>(path, body);
            return response.body.code === 'TER-003' ? undefined : response;
          },
          20_000,
        ),
      ),
    );
  }

  it('the same charge sent to both processes at once is charged once, and both answer it', async () => {
    for (let i = 0; i < 15; i++) {
      const body = { amount: amountOf(10000), client_transaction_id: randomUUID() };
      const answers = await both(CHARGE, body);
      expect(answers.map((a) => a.status)).toEqual([200, 200]);
      const references = answers.map((a) => (a.body.rawResponse as Json).transaction_reference as string);
      expect(references[0]).toBe(references[1]);
      const rows = await stack.store.rows(
        'api',
        'SELECT id FROM transactions WHERE client_transaction_id = ?',
        [body.client_transaction_id],
      );
      expect(rows).toHaveLength(1);
      const onTerminals = await Promise.all(
        ['terminal', 'terminal-2'].map((name) =>
          stack.store.rows(name, 'SELECT key FROM terminal_transactions WHERE key = ?', [
            `demo-merchant:${body.client_transaction_id}`,
          ]),
        ),
      );
      expect(onTerminals[0].length + onTerminals[1].length).toBe(1);
    }
  });

  it('refunds racing across both processes refund exactly what fits in the charge', async () => {
    const charge = await clients[0].post<Json>(CHARGE, {
      amount: amountOf(10000),
      client_transaction_id: randomUUID(),
    });
    expect(charge.status).toBe(200);
    const reference = (charge.body.rawResponse as Json).transaction_reference as string;
    // Each round starts with nothing running: the first refund recorded runs, and the others find
    // it running (TRX-007) or its terminal busy (TER-003), so every round approves one refund
    // while 3000 still fits. Three fit in 10000: after four rounds exactly three are approved.
    const approved: string[] = [];
    for (let round = 0; round < 4; round++) {
      const answers = await Promise.all(
        [0, 1, 0, 1].map((n) =>
          clients[n].post<Json>(REFUND, {
            client_transaction_id: randomUUID(),
            transaction_reference: reference,
            amount: amountOf(3000),
          }),
        ),
      );
      for (const answer of answers) {
        if (answer.status === 200)
          approved.push((answer.body.rawResponse as Json).transaction_reference as string);
        else expect(['TRX-005', 'TRX-007', 'TER-003']).toContain(answer.body.code);
      }
    }
    expect(approved).toHaveLength(3);
    const refunded = await stack.store.rows<{ refunded_total: number; business_state: string }>(
      'api',
      'SELECT refunded_total, business_state FROM transactions WHERE transaction_reference = ?',
      [reference],
    );
    expect(refunded).toEqual([{ refunded_total: 9000, business_state: 'PARTIALLY_REFUNDED' }]);
    const approvedRefunds = await stack.store.rows<{ transaction_reference: string }>(
      'api',
      `SELECT transaction_reference FROM transactions WHERE operation_type = 'refund' AND target_reference = ?
       AND transaction_reference IS NOT NULL`,
      [reference],
    );
    expect(approvedRefunds.map((row) => row.transaction_reference).sort()).toEqual([...approved].sort());
  });

  // Contract §6 "Order" with §13: a later event waits while an earlier one is being retried, also
  // when the two reached different processes. Last in this suite: it takes the terminal's links.
  it("delivers a transaction's events in lifecycle order when its runs reach different processes", async () => {
    const receiver = await WebhookReceiver.start();
    try {
      // A transaction SIM0000002 really ran, whose events become a new transaction's.
      const template = randomUUID();
      const answer = await clients[0].post<Json>('/terminal/v1/SIM0000002/async/charge', {
        amount: amountOf(10000),
        client_transaction_id: template,
        events_webhook_url: receiver.url('/template'),
      });
      expect(answer.status).toBe(200);
      await receiver.waitFor((all) => all.some((r) => (r.body as Json).status === 'APPROVAL'));
      const links = asNewTransaction(await linkEventsOf(stack.store, template), receiver.url('/ordered'));
      expect(links.map((link) => link.event.status)).toEqual([
        'TERMINAL_ACKNOWLEDGED',
        'CARD_PRESENTED',
        'APPROVAL_REQUESTED',
        'APPROVAL',
      ]);

      // The receiver fails CARD_PRESENTED's first three attempts: it is retried for a while.
      const ordered = (): ReceivedRequest[] => receiver.received.filter((r) => r.path === '/ordered');
      const cardAttempts = (): number =>
        ordered().filter((r) => (r.body as Json).status === 'CARD_PRESENTED').length;
      receiver.respondWith((request, _n, response) => {
        const retried = request.path === '/ordered' && (request.body as Json).status === 'CARD_PRESENTED';
        response.statusCode = retried && cardAttempts() <= 3 ? 503 : 200;
        response.end();
      });

      // The terminal moves from one process to the other between its two runs.
      await secondSimulator.stop();
      await stack.simulator?.stop();
      for (const api of [stack.api, secondApi]) {
        await poll(
          `${api.name} to see its terminals gone`,
          async () => {
            const health = (await (await fetch(`${api.url}/health`)).json()) as { linked_terminals: number };
            return health.linked_terminals === 0 ? true : undefined;
          },
          10_000,
        );
      }
      const first = await linkAs(stack.api.port, 'SIM0000002');
      const firstRun = await first.peer.request(
        { type: 'events', links: links.slice(0, 2) },
        5_000,
        EVENTS_RECEIPT,
      );
      expect(firstRun).toEqual({ stored: 2 });
      await receiver.waitFor(() => cardAttempts() >= 1);
      first.close();
      const second = await linkAs(secondApi.port, 'SIM0000002');
      const secondRun = await second.peer.request(
        { type: 'events', links: links.slice(2) },
        5_000,
        EVENTS_RECEIPT,
      );
      second.close();
      expect(secondRun).toEqual({ stored: 2 });

      await receiver.waitFor(() => ordered().some((r) => (r.body as Json).status === 'APPROVAL'));
      // Lifecycle order: nothing of a later event before the earlier one was acknowledged (its 4th attempt).
      expect(ordered().map((r) => (r.body as Json).status)).toEqual([
        'CARD_PRESENTED',
        'CARD_PRESENTED',
        'CARD_PRESENTED',
        'CARD_PRESENTED',
        'APPROVAL_REQUESTED',
        'APPROVAL',
      ]);
    } finally {
      await receiver.close();
    }
  });
});
