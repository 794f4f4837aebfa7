import { signRequest } from '@tps/contracts';
import {
  DEMO_MERCHANT,
  OTHER_MERCHANT,
  PAN_LIKE,
  poll,
  Stack,
  WebhookReceiver,
  withoutTraceIds,
  type Credentials,
} from '@tps/testing';
import { amountOf, newBody, searchPath, type Json } from './payment-helpers';

/**
 * The README's "Logs" and docs/contract.md "Request ids": the built apps'
 * JSON log lines, the id in error bodies and a merchant's own request log, read from real
 * processes. The money paths run at debug level and every line they wrote is scanned.
 */

/** The test cards of the simulated acquirer: their full numbers must never be logged. */
const TEST_PANS = ['4242424242424242', '5555555555554444'];

type Line = Record<string, unknown>;

/** A caller's W3C trace context (contract, "Traces"): its ids must reach the log lines. */
const CALLER_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN = '00f067aa0ba902b7';
const SPAN_ID = /^[0-9a-f]{16}$/;

describe('log lines, request ids and the merchant request log (LOG_LEVEL=debug)', () => {
  let stack: Stack;
  let receiver: WebhookReceiver;
  let account: Credentials;
  let webhookSecret: string;
  /** What the apps were handed or made that is secret: none of it may appear in a log line. */
  const secrets: string[] = [];

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    stack = await Stack.start({
      apiEnv: { LOG_LEVEL: 'debug', WEBHOOK_RETRY_SCALE: '0.001' },
      simulatorEnv: { LOG_LEVEL: 'debug' },
    });
    const created = await fetch(`${stack.apiUrl}/sandbox/accounts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ terminals: 2 }),
    });
    expect(created.status).toBe(201);
    const made = (await created.json()) as { merchant_id: string; secret_key: string };
    account = { merchantId: made.merchant_id, secret: made.secret_key };
    const secret = await stack.client().as(account).post<{ secret: string }>('/sandbox/webhook-secret');
    expect(secret.status).toBe(200);
    webhookSecret = secret.body.secret;
    secrets.push(account.secret, webhookSecret, DEMO_MERCHANT.secret, OTHER_MERCHANT.secret);
  });

  afterAll(async () => {
    await stack?.stop();
    await receiver?.close();
  });

  const apiLines = (): Line[] => stack.api.lines;

  it('writes one JSON line per request, with its id, merchant, route, status, duration, replica and trace', async () => {
    const body = newBody({ amount: amountOf(1000) });
    const answer = await stack
      .client()
      .send<Json>('POST', '/terminal/v1/SIM0000002/sync/charge', JSON.stringify(body), {
        traceparent: `00-${CALLER_TRACE}-${CALLER_SPAN}-01`,
      });
    expect(answer.status).toBe(200);
    const id = answer.headers.get('request-id');
    const line = await poll(
      'the request line',
      async () => apiLines().find((l) => l.context === 'Http' && l.request_id === id),
      10_000,
    );
    expect(line).toEqual({
      level: 'info',
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      app: 'api',
      replica: expect.any(String),
      context: 'Http',
      msg: expect.stringMatching(/^POST \/terminal\/v1\/:terminalSerial\/sync\/charge 200 [\d.]+ ms$/),
      request_id: id,
      method: 'POST',
      route: '/terminal/v1/:terminalSerial/sync/charge',
      status: 200,
      duration_ms: expect.any(Number),
      merchant_id: 'demo-merchant',
      terminal_serial: 'SIM0000002',
      client_transaction_id: body.client_transaction_id,
      // The request's own span, in the caller's trace (contract, "Traces").
      trace_id: CALLER_TRACE,
      span_id: expect.stringMatching(SPAN_ID),
    });
    expect(line.span_id).not.toBe(CALLER_SPAN);
  });

  it('writes one line per payment outcome, with the merchant, transaction and terminal', async () => {
    const body = newBody({ amount: amountOf(11651), events_webhook_url: receiver.url('/outcome') });
    const trace = CALLER_TRACE.replace(/^4/, '5');
    const ack = await stack
      .client()
      .send<Json>('POST', '/terminal/v1/SIM0000002/async/charge', JSON.stringify(body), {
        traceparent: `00-${trace}-${CALLER_SPAN}-01`,
      });
    expect(ack.status).toBe(200);
    const line = await poll(
      'the outcome line',
      async () =>
        apiLines().find(
          (l) => l.context === 'Payments' && l.client_transaction_id === body.client_transaction_id,
        ),
      10_000,
    );
    expect(line).toMatchObject({
      level: 'info',
      msg: expect.stringMatching(/^SIM0000002 charge 116\.51 DECLINED 51 \d+ ms$/),
      merchant_id: 'demo-merchant',
      terminal_serial: 'SIM0000002',
      operation: 'charge',
      status: 'DECLINED',
      code: '51',
      duration_ms: expect.any(Number),
      // The terminal's run of the operation, in the trace of the request that ordered it.
      trace_id: trace,
      span_id: expect.stringMatching(SPAN_ID),
    });
    const request = apiLines().find(
      (l) => l.context === 'Http' && l.request_id === ack.headers.get('request-id'),
    );
    expect(request).toMatchObject({ trace_id: trace });
    expect(line.span_id).not.toBe(request?.span_id);
  });

  it('names a trace on the line of a request refused before routing, and starts one when none is sent', async () => {
    const refused = await fetch(`${stack.apiUrl}/terminal/v1/sync/charge`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', traceparent: `00-${CALLER_TRACE}-${CALLER_SPAN}-01` },
      body: 'not json',
    });
    expect(refused.status).toBe(415);
    const fresh = await fetch(`${stack.apiUrl}/health`);
    expect(fresh.status).toBe(200);
    const lineOf = (answer: Response) =>
      poll(
        'the request line',
        async () =>
          apiLines().find((l) => l.context === 'Http' && l.request_id === answer.headers.get('request-id')),
        10_000,
      );
    expect(await lineOf(refused)).toMatchObject({
      status: 415,
      trace_id: CALLER_TRACE,
      span_id: expect.stringMatching(SPAN_ID),
    });
    const started = await lineOf(fresh);
    expect(started).toMatchObject({
      trace_id: expect.stringMatching(/^[0-9a-f]{32}$/),
      span_id: expect.stringMatching(SPAN_ID),
    });
    expect(started.trace_id).not.toBe(CALLER_TRACE);
  });

  it('puts the answer’s Request-Id in every error body as request_id', async () => {
    const unrouted = await fetch(`${stack.apiUrl}/no-such-route`, { headers: { 'request-id': 'find-me-1' } });
    expect(await unrouted.json()).toEqual({
      type: 'NOT_FOUND',
      code: 'NF-000',
      message: expect.any(String),
      request_id: 'find-me-1',
    });
    const refused = await stack.client().post<Json>('/terminal/v1/sync/charge', { amount: 'many' });
    expect(refused.status).toBe(400);
    expect(refused.body.request_id).toBe(refused.headers.get('request-id'));
    const unsigned = await fetch(`${stack.apiUrl}/sandbox/terminals`);
    expect(unsigned.status).toBe(401);
    expect(((await unsigned.json()) as Json).request_id).toBe(unsigned.headers.get('request-id'));
  });

  it("lists a merchant's own recent requests at GET /sandbox/requests, newest first, no other's", async () => {
    const mine = stack.client().as(account);
    const terminals = await mine.get<Json[]>('/sandbox/terminals');
    expect(terminals.status).toBe(200);
    const missing = await mine.patch('/sandbox/terminals/NOPE0001', { pace: 'instant' });
    expect(missing.status).toBe(404);
    await stack.client().as(OTHER_MERCHANT).get('/sandbox/terminals');

    const log = await mine.get<Json[]>('/sandbox/requests');
    expect(log.status).toBe(200);
    const [missingEntry, listEntry] = log.body.filter((entry) => entry.path.startsWith('/sandbox/terminals'));
    expect(missingEntry).toEqual({
      at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      method: 'PATCH',
      path: '/sandbox/terminals/NOPE0001',
      status: 404,
      duration_ms: expect.any(Number),
      request_id: missing.headers.get('request-id'),
    });
    expect(listEntry).toMatchObject({ path: '/sandbox/terminals', status: 200 });
    expect(listEntry.request_id).toBe(terminals.headers.get('request-id'));
    // The webhook-secret request of this account is there; the other merchant's request is not.
    expect(log.body.map((entry) => entry.path)).toContain('/sandbox/webhook-secret');
    const otherIds = apiLines()
      .filter((l) => l.context === 'Http' && l.merchant_id === OTHER_MERCHANT.merchantId)
      .map((l) => l.request_id);
    expect(otherIds.length).toBeGreaterThan(0);
    for (const entry of log.body) expect(otherIds).not.toContain(entry.request_id);
  });

  it('never logs a secret key, webhook secret, request or webhook signature, or a full card number', async () => {
    const mine = stack.client().as(account);
    const hook = receiver.url('/scan');
    // The money paths: async and sync charges, a refund, a search, with signed webhooks.
    const charge = newBody({ amount: amountOf(2000), events_webhook_url: hook });
    expect((await mine.post<Json>('/terminal/v1/async/charge', charge)).status).toBe(200);
    const sync = await poll(
      'the terminal to be free',
      async () => {
        const answer = await mine.post<Json>('/terminal/v1/sync/charge', newBody({ amount: amountOf(3000) }));
        return answer.status === 409 ? undefined : answer;
      },
      10_000,
    );
    expect(sync.body.approved).toBe(true);
    const refund = await mine.post<Json>(
      '/terminal/v1/sync/refund',
      newBody({
        transaction_reference: sync.body.rawResponse.transaction_reference,
        amount: amountOf(1000),
      }),
    );
    expect(refund.status).toBe(200);
    const search = await mine.post<Json>(searchPath('local', 'online'), {
      client_transaction_id: charge.client_transaction_id,
    });
    expect(search.status).toBe(200);
    // A refused signature, and a request whose body carries a secret-looking field.
    const body = JSON.stringify(newBody({ amount: amountOf(1000) }));
    const wrong = signRequest({
      merchantId: account.merchantId,
      secret: 'wrong-secret-value',
      method: 'POST',
      path: '/terminal/v1/sync/charge',
      body,
    });
    secrets.push('wrong-secret-value');
    const refused = await fetch(`${stack.apiUrl}/terminal/v1/sync/charge`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...wrong },
      body,
    });
    expect(refused.status).toBe(401);

    const delivered = await poll(
      'the signed webhooks',
      async () => {
        const got = receiver.received.filter((r) => r.path === '/scan');
        return got.some((r) => (r.body as Json).status === 'APPROVAL') ? got : undefined;
      },
      15_000,
    );
    const signatures = delivered.map((r) => String(r.headers['webhook-signature']));
    expect(signatures.every((s) => s.startsWith('v1,'))).toBe(true);
    const authorizations = [
      wrong.authorization,
      signRequest({ ...account, method: 'GET', path: '/sandbox/requests', body: '' }).authorization,
    ];

    const outputs = { api: stack.api.log, simulator: stack.simulator?.log ?? '' };
    // Debug level was on, and the lines of this run are there to scan.
    expect(stack.api.lines.some((l) => l.level === 'debug')).toBe(true);
    for (const [app, output] of Object.entries(outputs)) {
      for (const secret of secrets)
        expect({ app, found: output.includes(secret) }).toEqual({ app, found: false });
      for (const value of [...authorizations.map((a) => a.slice('Basic '.length)), ...signatures]) {
        // The signature itself, whatever framing: the hex of a request's, the base64 of a webhook's.
        const bare = value.startsWith('v1,')
          ? value.slice(3)
          : Buffer.from(value, 'base64').toString().split(':')[1];
        expect({ app, found: output.includes(value) || output.includes(bare) }).toEqual({
          app,
          found: false,
        });
      }
      for (const pan of TEST_PANS)
        expect({ app, found: output.includes(pan) }).toEqual({ app, found: false });
      expect({ app, match: PAN_LIKE.exec(withoutTraceIds(output))?.[0] }).toEqual({ app, match: undefined });
    }
  });
});

describe('LOG_FORMAT=pretty', () => {
  let stack: Stack;

  afterAll(async () => {
    await stack?.stop();
  });

  it('writes lines for people instead of JSON', async () => {
    stack = await Stack.start({ withoutSimulator: true, apiEnv: { LOG_FORMAT: 'pretty' } });
    const answer = await fetch(`${stack.apiUrl}/health`);
    expect(answer.status).toBe(200);
    const output = await poll(
      'the request line',
      async () => (stack.api.log.includes('GET /health 200') ? stack.api.log : undefined),
      10_000,
    );
    expect(output).toMatch(/INFO.*listening on port \d+/);
    expect(stack.api.lines.filter((l) => l.raw === undefined)).toEqual([]);
  });
});
