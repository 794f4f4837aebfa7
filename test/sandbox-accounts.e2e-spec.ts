import { randomUUID } from 'node:crypto';
import {
  DEMO_MERCHANT,
  FINAL_STATUSES,
  poll,
  scenarioBody,
  SignedClient,
  Stack,
  WebhookReceiver,
} from '@tps/testing';
import { amountOf, type Json } from './payment-helpers';
import { describeOnStores } from './stores';

const ACCOUNTS = 20;
const DAY = 24 * 60 * 60;
/** Past the 28 days of a credit pre-authorization (contract §8). */
const EXPIRE_PREAUTH = 29 * DAY;

interface Account {
  merchant_id: string;
  secret_key: string;
  terminals: Array<{ serialNumber: string; bound: boolean; link: string }>;
  clock: { now: string; local: string; offset_seconds: number };
}

function createAccount(stack: Stack, body?: unknown): Promise<Response> {
  return fetch(`${stack.apiUrl}/sandbox/accounts`, {
    method: 'POST',
    ...(body === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
}

async function newAccount(stack: Stack, body?: unknown): Promise<{ account: Account; client: SignedClient }> {
  const response = await createAccount(stack, body);
  const account = (await response.json()) as Account;
  expect(response.status).toBe(201);
  return {
    account,
    client: stack.client().as({ merchantId: account.merchant_id, secret: account.secret_key }),
  };
}

describeOnStores('sandbox accounts for CI (contract §14)', (store) => {
  let stack: Stack;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    stack = await Stack.start({ store, apiEnv: { ACCOUNT_RATE_LIMIT_MAX: String(ACCOUNTS + 8) } });
    receiver = await WebhookReceiver.start();
  });

  afterAll(async () => {
    await receiver?.close();
    await stack?.stop();
  });

  it('runs 20 accounts at once, each with charges, pre-authorizations and its own clock, none touching another', async () => {
    const created = await Promise.all(Array.from({ length: ACCOUNTS }, () => createAccount(stack)));
    expect(created.map((r) => r.status)).toEqual(Array(ACCOUNTS).fill(201));
    const accounts = (await Promise.all(created.map((r) => r.json()))) as Account[];
    for (const account of accounts) {
      expect(account).toEqual({
        merchant_id: expect.stringMatching(/^acct_[0-9a-f]{24}$/),
        secret_key: expect.stringMatching(/^[0-9a-f]{64}$/),
        terminals: [
          { serialNumber: expect.stringMatching(/^SIM\d{7}$/), bound: true, link: 'up' },
          { serialNumber: expect.stringMatching(/^SIM\d{7}$/), bound: false, link: 'up' },
        ],
        clock: { now: expect.any(String), local: expect.stringMatching(/-06:00$/), offset_seconds: 0 },
      });
    }
    expect(new Set(accounts.map((a) => a.merchant_id)).size).toBe(ACCOUNTS);
    expect(new Set(accounts.flatMap((a) => a.terminals.map((t) => t.serialNumber))).size).toBe(ACCOUNTS * 2);

    // Every account at once: a Local-form charge on its bound terminal and a Cloud-form
    // pre-authorization on its other one, then half of them move their clock past the
    // pre-authorization's validity. Only those see it expire.
    const outcomes = await Promise.all(
      accounts.map(async (account, index) => {
        const client = stack.client().as({ merchantId: account.merchant_id, secret: account.secret_key });
        const [bound, other] = account.terminals.map((t) => t.serialNumber);
        const [charge, authorization] = await Promise.all([
          client.post<Json>('/terminal/v1/sync/charge', {
            amount: amountOf(10_000 + index * 100),
            client_transaction_id: randomUUID(),
          }),
          client.post<Json>(`/terminal/v1/${other}/sync/authorization`, {
            amount: amountOf(50_000),
            client_transaction_id: randomUUID(),
          }),
        ]);
        const advances = index % 2 === 1;
        const clock = await client.post<Json>('/sandbox/clock', {
          advance_seconds: advances ? EXPIRE_PREAUTH : 0,
        });
        const capture = await client.post<Json>(`/terminal/v1/${other}/sync/capture`, {
          transaction_reference: authorization.body.rawResponse?.transaction_reference,
          client_transaction_id: randomUUID(),
        });
        const search = await client.post<Json>('/terminal/v1/sync/transaction_search_online', {});
        return { account, bound, advances, charge, authorization, clock, capture, search };
      }),
    );

    outcomes.forEach(({ account, bound, advances, charge, authorization, clock, capture, search }, index) => {
      expect(charge.status).toBe(200);
      expect(charge.body).toMatchObject({ approved: true });
      expect([authorization.status, authorization.body.code]).toEqual([200, undefined]);
      expect(authorization.body.approved).toBe(true);
      expect(clock.body.offset_seconds).toBe(advances ? EXPIRE_PREAUTH : 0);
      if (advances) {
        expect(capture.status).toBe(409);
        expect(capture.body).toMatchObject({ code: 'TRX-004' });
      } else {
        expect(capture.status).toBe(200);
        expect(capture.body.approved).toBe(true);
      }
      // Its own transactions only: the charge, the authorization and the capture attempt's record.
      const items = search.body.items as Json[];
      const serials = new Set(account.terminals.map((t) => t.serialNumber));
      expect(items.every((item) => serials.has(item.terminal_serial))).toBe(true);
      expect(items.map((item) => item.operation_type).sort()).toEqual(
        advances ? ['authorization', 'charge'] : ['authorization', 'capture', 'charge'],
      );
      const chargeItem = items.find((item) => item.operation_type === 'charge');
      expect(chargeItem?.amount.total).toBe(10_000 + index * 100);
      expect(chargeItem?.terminal_serial).toBe(bound);
    });

    // The shared demo merchant saw none of it.
    const demoClock = await stack.client().get<Json>('/sandbox/clock');
    expect(demoClock.body.offset_seconds).toBe(0);
  });

  it('limits account creation per client address with 429 RATE-001 and Retry-After', async () => {
    let answer: Response | undefined;
    for (let i = 0; i < ACCOUNTS + 8 && answer?.status !== 429; i++) answer = await createAccount(stack);
    expect(answer?.status).toBe(429);
    expect(Number(answer?.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await answer?.json()).toMatchObject({ type: 'RATE_LIMIT', code: 'RATE-001' });
  });
});

describeOnStores('sandbox account input, reset and removal', (store) => {
  let stack: Stack;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    stack = await Stack.start({ store });
    receiver = await WebhookReceiver.start();
  });

  afterAll(async () => {
    await receiver?.close();
    await stack?.stop();
  });

  it.each([
    [{ terminals: 0 }, 'PAR-002', 'terminals'],
    [{ terminals: 21 }, 'PAR-002', 'terminals'],
    [{ terminals: '2' }, 'PAR-002', 'terminals'],
    [{ pace: 'slow' }, 'PAR-002', 'pace'],
    [{ terminal: 2 }, 'PAR-001', 'terminal'],
  ])('refuses %j with %s', async (body, code, param) => {
    const response = await createAccount(stack, body);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      type: 'PARAMETER',
      code,
      message: expect.any(String),
      param,
      request_id: response.headers.get('request-id'),
    });
  });

  it('answers hostile bodies on account creation and reset in the contract shape, never 5xx', async () => {
    const bodies = [
      '{',
      '[]',
      'null',
      '"terminals"',
      '{"terminals":1e999}',
      '{"terminals":2.5}',
      '{"terminals":null}',
      '{"pace":["fast"]}',
      '{"__proto__":{"terminals":5}}',
      '{"constructor":{"prototype":{}}}',
      `{"pace":"${'x'.repeat(10_000)}"}`,
    ];
    const { client } = await newAccount(stack);
    for (const body of bodies) {
      for (const contentType of ['application/json', 'text/plain']) {
        const created = await fetch(`${stack.apiUrl}/sandbox/accounts`, {
          method: 'POST',
          headers: { 'content-type': contentType },
          body,
        });
        const reset = await client.send<Json>('POST', '/sandbox/reset', body, {
          'content-type': contentType,
        });
        for (const [status, text] of [
          [created.status, await created.text()],
          [reset.status, JSON.stringify(reset.body)],
        ] as const) {
          expect(status).toBeLessThan(500);
          if (status >= 400) {
            expect(
              Object.keys(JSON.parse(text)).every((k) =>
                ['type', 'code', 'message', 'param', 'request_id'].includes(k),
              ),
            ).toBe(true);
          }
        }
      }
    }
  });

  it('refuses malformed JSON with PAR-001', async () => {
    const response = await fetch(`${stack.apiUrl}/sandbox/accounts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"terminals":',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ type: 'PARAMETER', code: 'PAR-001' });
  });

  it('makes as many terminals as asked, at the pace asked, the first bound for the Local form', async () => {
    const { account, client } = await newAccount(stack, { terminals: 3, pace: 'fast' });
    expect(account.terminals.map((t) => [t.bound, t.link])).toEqual([
      [true, 'up'],
      [false, 'up'],
      [false, 'up'],
    ]);
    const fleet = await client.get<Json[]>('/sandbox/terminals');
    expect(fleet.body.map((t) => [t.serialNumber, t.pace, t.link]).sort()).toEqual(
      account.terminals.map((t) => [t.serialNumber, 'fast', 'up']).sort(),
    );
    const print = await client.post<Json>('/terminal/v1/print', { commands: [{ type: 'cut' }] });
    expect(print.status).toBe(202);
    expect(print.body.terminalSerial).toBe(account.terminals[0].serialNumber);
  });

  it('reset erases transactions, deliveries and print jobs on both sides, and restores clock and terminals', async () => {
    const { account, client } = await newAccount(stack);
    const [bound, other] = account.terminals.map((t) => t.serialNumber);
    const hook = `/hook/${randomUUID()}`;

    const charge = scenarioBody('00', receiver.url(hook));
    expect((await client.post<Json>('/terminal/v1/async/charge', charge)).status).toBe(200);
    await receiver.waitFor((all) =>
      all.some((r) => r.path === hook && FINAL_STATUSES.includes((r.body as Json).status)),
    );
    const print = await client.post<Json>(`/terminal/v1/${other}/print`, { commands: [{ type: 'cut' }] });
    expect(print.status).toBe(202);
    expect((await client.post('/sandbox/clock', { advance_seconds: 3 * DAY })).status).toBe(200);
    expect(
      (await client.patch(`/sandbox/terminals/${other}`, { pace: 'fast', printer: 'paper_out' })).status,
    ).toBe(200);
    expect((await client.post(`/sandbox/terminals/${bound}/offline`)).status).toBe(200);
    expect((await client.patch(`/sandbox/terminals/${bound}`, { cardholder: 'manual' })).status).toBe(200);
    // Scenario 97 holds the other terminal until someone presents a card: reset must free it.
    const waiting = scenarioBody('97');
    expect((await client.post<Json>(`/terminal/v1/${other}/async/charge`, waiting)).status).toBe(200);

    const reset = await client.post<Json>('/sandbox/reset');
    expect(reset.status).toBe(200);
    expect(reset.body).toEqual({
      reset: true,
      clock: { now: expect.any(String), local: expect.any(String), offset_seconds: 0 },
    });
    expect(Math.abs(Date.parse(reset.body.clock.now) - Date.now())).toBeLessThan(60_000);

    const online = await client.post<Json>('/terminal/v1/sync/transaction_search_online', {});
    expect(online.body.items).toEqual([]);
    for (const serial of [bound, other]) {
      const local = await client.post<Json>(`/terminal/v1/${serial}/sync/transaction_search_local`, {});
      expect(local.status).toBe(200);
      expect(local.body.items).toEqual([]);
    }
    const deliveries = await client.get<Json>(
      `/sandbox/deliveries?client_transaction_id=${charge.client_transaction_id}`,
    );
    expect(deliveries.body.items).toEqual([]);
    const job = await client.get<Json>(`/terminal/v1/${other}/print/${print.body.printJobId}`);
    expect(job.status).toBe(404);
    expect((await client.get<Json>('/sandbox/clock')).body.offset_seconds).toBe(0);
    const fleet = await client.get<Json[]>('/sandbox/terminals');
    expect(fleet.body.map((t) => [t.serialNumber, t.pace, t.printer, t.cardholder, t.link]).sort()).toEqual(
      [
        [bound, 'instant', 'ok', 'auto', 'up'],
        [other, 'fast', 'ok', 'auto', 'up'],
      ].sort(),
    );

    // Idle: the terminal scenario 97 held takes a charge at once, and an id used before the
    // reset is new again.
    const again = await client.post<Json>(`/terminal/v1/${other}/sync/charge`, {
      ...scenarioBody('00'),
      client_transaction_id: waiting.client_transaction_id,
    });
    expect(again.status).toBe(200);
    expect(again.body.approved).toBe(true);
    const search = await client.post<Json>('/terminal/v1/sync/transaction_search_online', {});
    expect(search.body.items.map((item: Json) => item.client_transaction_id)).toEqual([
      waiting.client_transaction_id,
    ]);
  });

  it('reset leaves other accounts as they were', async () => {
    const first = await newAccount(stack);
    const second = await newAccount(stack);
    const charge = await second.client.post<Json>('/terminal/v1/sync/charge', scenarioBody('00'));
    expect(charge.status).toBe(200);
    await second.client.post('/sandbox/clock', { advance_seconds: DAY });
    expect((await first.client.post('/sandbox/reset')).status).toBe(200);
    const search = await second.client.post<Json>('/terminal/v1/sync/transaction_search_online', {});
    expect(search.body.items).toHaveLength(1);
    expect((await second.client.get<Json>('/sandbox/clock')).body.offset_seconds).toBe(DAY);
  });

  it('delete removes the account, its terminals on both sides and its data; its credentials then get 401', async () => {
    const keep = await newAccount(stack);
    const { account, client } = await newAccount(stack);
    expect((await client.post<Json>('/terminal/v1/sync/charge', scenarioBody('00'))).status).toBe(200);
    const before = await healthOf(stack);

    const removed = await client.delete('/sandbox/accounts/me');
    expect(removed.status).toBe(204);
    expect((await client.get<Json>('/sandbox/terminals')).status).toBe(401);
    expect((await client.post<Json>('/terminal/v1/sync/charge', scenarioBody('00'))).body).toMatchObject({
      code: 'AUTH-001',
    });
    await poll(
      'the removed terminals to be gone',
      async () => {
        const now = await healthOf(stack);
        return now.api.linked_terminals === before.api.linked_terminals - 2 &&
          now.simulator.hosted_terminals === before.simulator.hosted_terminals - 2
          ? true
          : undefined;
      },
      5000,
    );
    expect((await fetch(`${stack.apiUrl}/ready`)).status).toBe(200);

    // Its serials are free again, and the other account is untouched.
    const terminals = await keep.client.get<Json[]>('/sandbox/terminals');
    expect(terminals.body.map((t) => t.link)).toEqual(['up', 'up']);
    const reused = await keep.client.post<Json>('/sandbox/terminals', {
      serial: account.terminals[0].serialNumber,
      pace: 'instant',
    });
    expect(reused.status).toBe(201);
    expect(reused.body.link).toBe('up');
    const local = await keep.client.post<Json>(
      `/terminal/v1/${account.terminals[0].serialNumber}/sync/transaction_search_local`,
      {},
    );
    expect(local.body.items).toEqual([]);
  });

  it('keeps the shared demo merchants: deleting one is 409', async () => {
    const response = await stack.client().as(DEMO_MERCHANT).delete('/sandbox/accounts/me');
    expect(response.status).toBe(409);
    expect(response.body).toMatchObject({ code: 'TRX-006' });
    expect((await stack.client().get('/sandbox/clock')).status).toBe(200);
  });

  it('signs reset and delete like every other route', async () => {
    for (const [method, path] of [
      ['POST', '/sandbox/reset'],
      ['DELETE', '/sandbox/accounts/me'],
    ]) {
      const response = await fetch(`${stack.apiUrl}${path}`, { method });
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ code: 'AUTH-001' });
    }
  });
});

async function healthOf(stack: Stack): Promise<{ api: Json; simulator: Json }> {
  const api = (await (await fetch(`${stack.apiUrl}/health`)).json()) as Json;
  const simulator = (await (await fetch(`${stack.simulator?.url}/health`)).json()) as Json;
  return { api, simulator };
}
