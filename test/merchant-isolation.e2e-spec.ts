import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import {
  DEMO_MERCHANT,
  OTHER_MERCHANT,
  poll,
  sqliteRows,
  Stack,
  WebhookReceiver,
  type ClientResponse,
  type SignedClient,
} from '@tps/testing';
import { ISOLATION_PROBES, type Footprint, type Probe } from './isolation-probes';
import { finished, operate, type Json } from './payment-helpers';

const A = DEMO_MERCHANT.merchantId;
const A_SERIALS = ['SIM0000001', 'SIM0000002'];
const AMOUNT = { iva: 1600, subtotal_iva: 10000, subtotal_iva0: 0 };
const FINAL = ['APPROVAL', 'DECLINED', 'TERMINAL_REJECTED', 'TERMINAL_CANCELED'];

const chargeBody = (fields: Json = {}): Json => ({
  amount: AMOUNT,
  client_transaction_id: randomUUID(),
  ...fields,
});

/** Everything merchant A owns, read straight from both apps' stores. */
async function snapshotOfA(stack: Stack): Promise<Record<string, unknown[]>> {
  const api = stack.apiDatabase;
  const terminal = join(stack.dir, 'terminal.sqlite');
  const serials = A_SERIALS.map((s) => `'${s}'`).join(',');
  const ofA = `SELECT id FROM transactions WHERE merchant_id = '${A}'`;
  const deliveriesOfA = `SELECT id FROM webhook_deliveries WHERE merchant_id = '${A}'`;
  const queries: Array<[string, string, string]> = [
    ['merchant', api, `SELECT * FROM merchants WHERE merchant_id = '${A}'`],
    ['terminals', api, `SELECT * FROM terminals WHERE merchant_id = '${A}' ORDER BY serial_number`],
    ['transactions', api, `SELECT * FROM transactions WHERE merchant_id = '${A}' ORDER BY id`],
    ['events', api, `SELECT * FROM transaction_events WHERE transaction_id IN (${ofA}) ORDER BY event_id`],
    ['print jobs', api, `SELECT * FROM print_jobs WHERE merchant_id = '${A}' ORDER BY print_job_id`],
    ['deliveries', api, `SELECT * FROM webhook_deliveries WHERE merchant_id = '${A}' ORDER BY id`],
    [
      'attempts',
      api,
      `SELECT * FROM webhook_delivery_attempts WHERE delivery_id IN (${deliveriesOfA}) ORDER BY delivery_id, n`,
    ],
    [
      'terminal transactions',
      terminal,
      `SELECT * FROM terminal_transactions WHERE serial_number IN (${serials}) ORDER BY key`,
    ],
    [
      'terminal events',
      terminal,
      `SELECT * FROM terminal_events WHERE serial_number IN (${serials}) ORDER BY seq`,
    ],
    [
      'terminal print jobs',
      terminal,
      `SELECT * FROM terminal_print_jobs WHERE serial_number IN (${serials}) ORDER BY seq`,
    ],
  ];
  const snapshot: Record<string, unknown[]> = {};
  for (const [name, file, sql] of queries) snapshot[name] = await sqliteRows(file, sql);
  return snapshot;
}

/** Sends a probe, waiting while B's terminal is busy with one of B's own earlier probes. */
function send(client: SignedClient, probe: Probe): Promise<ClientResponse<any>> {
  if (probe.stream) return client.stream(probe.path, (messages) => messages.length > 0);
  const raw = probe.body === undefined ? undefined : JSON.stringify(probe.body);
  return poll(
    `${probe.method} ${probe.path}`,
    async () => {
      const answer = await client.send<any>(probe.method, probe.path, raw);
      return answer.status === 409 && answer.body?.code === 'TER-003' ? undefined : answer;
    },
    15_000,
  );
}

/**
 * What is wrong with B's answer: another status or code than the probe expects (403 included), a
 * failed check, or any of A's identifiers that B did not send itself.
 */
function verdict(
  route: string,
  probe: Probe,
  answer: ClientResponse<any>,
  identifiersOfA: string[],
  sentBefore: string,
): string[] {
  const what = `${route} → ${probe.method} ${probe.path} ${JSON.stringify(probe.body ?? '')}`;
  const got = `${answer.status} ${JSON.stringify(answer.body)}`;
  const wrong: string[] = [];
  if (answer.status !== probe.status) wrong.push(`${what}: expected ${probe.status}, got ${got}`);
  else if (probe.code !== undefined && answer.body?.code !== probe.code)
    wrong.push(`${what}: expected ${probe.code}, got ${got}`);
  else {
    try {
      probe.check?.(answer.body);
    } catch (error) {
      wrong.push(`${what}: ${(error as Error).message}`);
    }
  }
  // An error message may echo what B named (a serial, a reference); anything else of A's is a leak.
  const sent = `${probe.echoesEarlierProbes ? sentBefore : ''} ${probe.path} ${JSON.stringify(probe.body ?? {})}`;
  const text = JSON.stringify(answer.body);
  const leaked = identifiersOfA.filter((id) => !sent.includes(id) && text.includes(id));
  if (leaked.length > 0) wrong.push(`${what}: the answer names A's ${leaked.join(', ')}: ${got}`);
  return wrong;
}

describe('merchant isolation on every route', () => {
  let stack: Stack;
  let receiver: WebhookReceiver;
  let a: SignedClient;
  let b: SignedClient;

  beforeAll(async () => {
    stack = await Stack.start();
    receiver = await WebhookReceiver.start();
    a = stack.client().as(DEMO_MERCHANT);
    b = stack.client().as(OTHER_MERCHANT);
  });

  afterAll(async () => {
    await receiver?.close();
    await stack?.stop();
  });

  /** Merchant A's business: payments of every kind, webhooks delivered, a printed receipt. */
  async function businessOfA(): Promise<{ footprint: Footprint; secrets: string[] }> {
    const secret = (await a.post<Json>('/sandbox/webhook-secret')).body.secret as string;
    const syncCharge = chargeBody();
    const syncCloudCharge = chargeBody();
    const asyncCharge = chargeBody({ events_webhook_url: receiver.url('/a/charge') });
    const asyncAuthorization = chargeBody({ events_webhook_url: receiver.url('/a/authorization') });
    const authorization = chargeBody();
    const s = await operate(a, 'local', 'sync', 'charge', syncCharge);
    const s2 = await operate(a, 'cloud', 'sync', 'charge', syncCloudCharge);
    const charged = await operate(a, 'cloud', 'async', 'charge', asyncCharge);
    const authorized = await a.post<Json>('/authorization', authorization);
    expect(authorized.body.approved).toBe(true);
    await finished(a, authorization.client_transaction_id);
    const q = await operate(a, 'local', 'async', 'authorization', asyncAuthorization);
    const refund = chargeBody({ transaction_reference: s.reference, amount: { ...AMOUNT, iva: 0 } });
    const refunded = await operate(a, 'local', 'sync', 'refund', refund);
    const references = [s.reference, s2.reference, charged.reference, q.reference, refunded.reference];
    expect(references.every((ref) => typeof ref === 'string')).toBe(true);

    const job = await a.post<Json>('/terminal/v1/SIM0000002/print', {
      transaction_reference: s2.reference,
      webhookUrl: receiver.url('/a/print'),
    });
    expect(job.status).toBe(202);
    const printJobId = job.body.printJobId as string;
    await poll(
      'A print job to complete and call back',
      async () => {
        const got = await a.get<Json>(`/terminal/v1/SIM0000002/print/${printJobId}`);
        return got.body.status === 'COMPLETED' && got.body.callback !== undefined ? true : undefined;
      },
      15_000,
    );
    const deliveryIds: string[] = [];
    for (const id of [asyncCharge.client_transaction_id, asyncAuthorization.client_transaction_id]) {
      const items = await poll(
        `A's webhooks of ${id} to be delivered`,
        async () => {
          const list = await a.get<Json>(`/sandbox/deliveries?client_transaction_id=${id}`);
          const all = list.body.items as Json[];
          const done =
            all.some((d) => d.event_status === 'APPROVAL') && all.every((d) => d.state === 'delivered');
          return done ? all : undefined;
        },
        15_000,
      );
      deliveryIds.push(...items.map((d) => d.id as string));
    }
    // B never takes A's refund's client id: as B's async charge id it stands for "A's request, sent again".
    const reusedAsAsyncCharge = { amount: AMOUNT, client_transaction_id: refund.client_transaction_id };
    const { events_webhook_url: _dropped, ...asyncAuthorizationOfB } = asyncAuthorization;
    return {
      footprint: {
        serials: A_SERIALS,
        references: references as string[],
        authorization: authorized.body.rawResponse.transaction_reference as string,
        target: asyncCharge.client_transaction_id,
        bodies: {
          syncCharge,
          syncCloudCharge,
          asyncCharge: reusedAsAsyncCharge,
          authorization,
          asyncAuthorization: asyncAuthorizationOfB,
        },
        printJobId,
        deliveryIds,
      },
      secrets: [secret],
    };
  }

  /** Every identifier of A that a response to B could leak. */
  async function identifiersOfA(footprint: Footprint, secrets: string[]): Promise<string[]> {
    const rows = await sqliteRows<{ id: string }>(
      stack.apiDatabase,
      `SELECT id FROM transactions WHERE merchant_id = ?
       UNION SELECT client_transaction_id FROM transactions WHERE merchant_id = ?
       UNION SELECT transaction_reference FROM transactions WHERE merchant_id = ? AND transaction_reference IS NOT NULL
       UNION SELECT event_id FROM transaction_events WHERE transaction_id IN (SELECT id FROM transactions WHERE merchant_id = ?)
       UNION SELECT print_job_id FROM print_jobs WHERE merchant_id = ?
       UNION SELECT id FROM webhook_deliveries WHERE merchant_id = ?`,
      [A, A, A, A, A, A],
    );
    return [A, ...footprint.serials, ...rows.map((row) => row.id), ...secrets, `127.0.0.1:${receiver.port}`];
  }

  it("answers merchant B on every route as if merchant A's data did not exist, and changes none of it", async () => {
    const { footprint, secrets } = await businessOfA();
    const identifiers = await identifiersOfA(footprint, secrets);
    // A's terminal writes the service's acknowledgements of its events a moment later (its health
    // writes them at once): the snapshot is taken once all of A's events are acknowledged.
    await poll(
      "A's terminal events all acknowledged",
      async () => {
        const health = (await (await fetch(`${stack.simulator?.url}/health`)).json()) as {
          queued_events: number;
        };
        return health.queued_events === 0 ? true : undefined;
      },
      15_000,
    );
    const before = await snapshotOfA(stack);
    const receivedBefore = receiver.received.length;

    const document = (await (await fetch(`${stack.apiUrl}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const routes = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(routes.length).toBeGreaterThan(40);
    // A route nobody mapped would go untried: that is a failure of this suite, not a pass.
    expect(routes.filter((route) => !(route in ISOLATION_PROBES))).toEqual([]);
    expect(Object.keys(ISOLATION_PROBES).filter((route) => !routes.includes(route))).toEqual([]);

    const failures: string[] = [];
    /** A's client ids that B has since used for transactions of its own: they are B's too now. */
    const claimed = new Set<string>();
    let probes = 0;
    /** Every path and body B has sent so far. */
    let sentBefore = '';
    for (const route of routes) {
      for (const probe of ISOLATION_PROBES[route](footprint)) {
        probes += 1;
        const answer = await send(b, probe);
        failures.push(
          ...verdict(
            route,
            probe,
            answer,
            identifiers.filter((id) => !claimed.has(id)),
            sentBefore,
          ),
        );
        sentBefore += ` ${probe.path} ${JSON.stringify(probe.body ?? {})}`;
        const own = probe.body?.client_transaction_id;
        if (answer.status < 300 && typeof own === 'string') claimed.add(own);
      }
    }
    expect(failures).toEqual([]);
    expect(probes).toBeGreaterThan(routes.length);

    // B's own transactions end on B's terminal; none of that may touch A's records.
    await poll(
      "B's transactions to end",
      async () => {
        const list = await b.post<Json>('/terminal/v1/sync/transaction_search_online', { limit: 100 });
        const items = list.body.items as Json[];
        return items.every((item) => FINAL.includes(item.status)) ? true : undefined;
      },
      15_000,
    );
    await stack.waitQueueDrained();
    expect(await snapshotOfA(stack)).toEqual(before);
    expect(receiver.received.length).toBe(receivedBefore);
    const fleet = await a.get<Json[]>('/sandbox/terminals');
    expect(fleet.body.map((t) => [t.serialNumber, t.link, t.printer])).toEqual([
      ['SIM0000001', 'up', 'ok'],
      ['SIM0000002', 'up', 'ok'],
    ]);
  });
});
