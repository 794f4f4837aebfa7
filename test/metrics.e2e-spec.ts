import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { answerWith, neverAnswer, poll, scenarioBody, Stack, WebhookReceiver } from '@tps/testing';
import { finished } from './payment-helpers';
import { scrape, Scrape } from './prometheus-scrape';

/** Waits until `probe` of a fresh scrape is `expected`, and answers that scrape. */
async function scrapeUntil(url: string, what: string, probe: (s: Scrape) => boolean): Promise<Scrape> {
  return poll(
    what,
    async () => {
      const now = await scrape(url);
      return probe(now) ? now : undefined;
    },
    10_000,
  );
}

describe('metrics on a port of their own (METRICS_PORT)', () => {
  let stack: Stack;
  let receiver: WebhookReceiver;
  let metricsUrl: string;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start((request, n, response) =>
      request.path === '/stuck' ? neverAnswer(request, n, response) : answerWith(200)(request, n, response),
    );
    stack = await Stack.start({
      apiEnv: { METRICS_PORT: '0', REPLICA_ID: 'replica-e2e', METRICS_REFRESH_MS: '200' },
    });
    // Port 0 takes any free port: the API names it in its log.
    const port = /metrics on port (\d+)/.exec(stack.api.log)?.[1];
    expect(port).toBeDefined();
    metricsUrl = `http://127.0.0.1:${port}`;
  });

  afterAll(async () => {
    await stack?.stop();
    await receiver?.close();
  });

  it('answers in the Prometheus text format, every sample labelled with its replica', async () => {
    const response = await fetch(`${metricsUrl}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const now = Scrape.parse(await response.text());
    expect(now.lines.length).toBeGreaterThan(0);
    expect(now.lines.filter((sample) => !sample.labels.includes('replica="replica-e2e"'))).toEqual([]);
    for (const family of [
      'nodejs_eventloop_lag_seconds',
      'http_requests_total',
      'tps_terminal_links_up',
      'tps_storage_failures_total',
      'tps_routed_requests_total',
    ]) {
      expect({ family, present: now.has(family) }).toEqual({ family, present: true });
    }
    expect(now.value('tps_terminal_links_up')).toBe(3);
    expect(now.value('tps_storage_failures_total')).toBe(0);
    // One process holds the outbox's readings: it exports them once read.
    const read = await scrapeUntil(metricsUrl, 'the outbox read', (next) => next.has('tps_outbox_depth'));
    for (const family of ['tps_outbox_depth', 'tps_outbox_oldest_age_seconds', 'tps_outbox_read_age_seconds'])
      expect({ family, present: read.has(family) }).toEqual({ family, present: true });
  });

  it("has every route's 5xx series at zero before its first 5xx, under the label its requests get", async () => {
    // The pages and documents are served by the OpenAPI module, not by a controller.
    for (const path of ['/docs', '/docs/', '/docs/swagger-ui-init.js', '/openapi.json', '/openapi.yaml'])
      expect({ path, status: (await fetch(`${stack.apiUrl}${path}`)).status }).toEqual({ path, status: 200 });
    const first = await scrape(metricsUrl);
    const zeroed = (status: string): Set<string> =>
      new Set(
        first.lines
          .filter(
            (sample) => sample.name === 'http_requests_total' && sample.labels.includes(`status="${status}"`),
          )
          .map((sample) => /route="([^"]*)"/.exec(sample.labels)?.[1] ?? ''),
      );
    for (const route of [
      '/terminal/v1/:terminalSerial/sync/charge',
      '/terminal/v1/sync/charge',
      '/terminal/v1/:terminalSerial/async/capture',
      '/sandbox/terminals/:serial/offline',
      '/health',
      '/openapi.json',
      '(unrouted)',
    ]) {
      for (const status of ['500', '503', '504'])
        expect({ route, status, zeroed: zeroed(status).has(route) }).toEqual({ route, status, zeroed: true });
    }
    // Every route a request was counted under is one of those given series at the start.
    const counted = new Set(
      first.lines
        .filter((sample) => sample.name === 'http_requests_total')
        .map((sample) => /route="([^"]*)"/.exec(sample.labels)?.[1] ?? ''),
    );
    expect([...counted].filter((route) => !zeroed('503').has(route))).toEqual([]);
    expect(first.value('tps_routed_requests_total', { link: 'uplink' })).toBe(0);
    expect(first.value('tps_webhook_attempts_total', { outcome: 'failed' })).toBe(0);
  });

  it('serves only GET /metrics there, and nothing on the API port', async () => {
    for (const [method, path] of [
      ['GET', '/health'],
      ['POST', '/metrics'],
    ]) {
      const elsewhere = await fetch(`${metricsUrl}${path}`, { method });
      expect(elsewhere.status).toBe(404);
      expect(await elsewhere.json()).toMatchObject({ type: 'NOT_FOUND', code: 'NF-000' });
    }
    const onApi = await fetch(`${stack.apiUrl}/metrics`);
    expect(onApi.status).toBe(404);
    expect(await onApi.json()).toMatchObject({ code: 'NF-000' });
  });

  it('counts requests by route template and status, and operation latency by type and outcome', async () => {
    const client = stack.client();
    const before = await scrape(metricsUrl);
    for (const ending of ['00', '00']) {
      const answer = await client.post('/terminal/v1/sync/charge', scenarioBody(ending));
      expect(answer.body).toMatchObject({ approved: true });
    }
    const declined = await client.post('/terminal/v1/SIM0000002/sync/charge', scenarioBody('51'));
    expect(declined.body).toMatchObject({ approved: false, responseCode: '51' });
    const unknownPath = `/no-such-route-${randomUUID()}`;
    expect((await fetch(`${stack.apiUrl}${unknownPath}`)).status).toBe(404);

    const local = { method: 'POST', route: '/terminal/v1/sync/charge', status: '200' };
    const cloud = { method: 'POST', route: '/terminal/v1/:terminalSerial/sync/charge', status: '200' };
    const unrouted = { method: 'GET', route: '(unrouted)', status: '404' };
    const delta = (now: Scrape, name: string, labels: Record<string, string>): number =>
      now.value(name, labels) - before.value(name, labels);
    const after = await scrapeUntil(
      metricsUrl,
      'the requests counted',
      (now) => delta(now, 'http_requests_total', unrouted) >= 1,
    );
    expect(delta(after, 'http_requests_total', local)).toBe(2);
    expect(delta(after, 'http_requests_total', cloud)).toBe(1);
    expect(delta(after, 'http_requests_total', unrouted)).toBe(1);
    expect(delta(after, 'http_request_duration_seconds_count', local)).toBe(2);
    expect(delta(after, 'http_request_duration_seconds_count', cloud)).toBe(1);
    expect(delta(after, 'http_request_duration_seconds_sum', local)).toBeGreaterThan(0);
    // A path the caller chose never becomes a label.
    expect(after.lines.filter((sample) => sample.labels.includes('no-such-route'))).toEqual([]);

    const approved = { operation: 'charge', outcome: 'APPROVAL' };
    const declinedOutcome = { operation: 'charge', outcome: 'DECLINED' };
    expect(delta(after, 'tps_operation_duration_seconds_count', approved)).toBe(2);
    expect(delta(after, 'tps_operation_duration_seconds_count', declinedOutcome)).toBe(1);
    // Each outcome falls in a bucket up to +Inf, so the +Inf bucket counts them all.
    expect(delta(after, 'tps_operation_duration_seconds_bucket', { ...approved, le: '+Inf' })).toBe(2);
  });

  it('counts webhook attempts by outcome, and reads the outbox in the background', async () => {
    const client = stack.client();
    const before = await scrape(metricsUrl);
    expect(before.value('tps_outbox_depth')).toBe(0);
    expect(before.value('tps_outbox_oldest_age_seconds')).toBe(0);

    const delivered = scenarioBody('00', receiver.url('/ok'));
    expect((await client.post('/terminal/v1/SIM0000002/async/charge', delivered)).status).toBe(200);
    await finished(client, delivered.client_transaction_id);
    // Each state after the acknowledgement is one webhook: card presented, approval requested, approval.
    await receiver.waitFor((received) => received.filter((r) => r.path === '/ok').length === 3);
    // The outbox is read in the background: a reading taken before the last delivery ended may
    // still show it pending, so wait for one taken after.
    const afterDelivered = await scrapeUntil(
      metricsUrl,
      'three delivered attempts, and the outbox read empty since',
      (now) =>
        now.value('tps_webhook_attempts_total', { outcome: 'delivered' }) -
          before.value('tps_webhook_attempts_total', { outcome: 'delivered' }) ===
          3 && now.value('tps_outbox_depth') === 0,
    );
    expect(afterDelivered.value('tps_outbox_depth')).toBe(0);

    // A receiver that never answers holds the first delivery in flight, the later two behind it.
    const stuck = scenarioBody('00', receiver.url('/stuck'));
    expect((await client.post('/terminal/v1/SIM0000002/async/charge', stuck)).status).toBe(200);
    await finished(client, stuck.client_transaction_id);
    const backlog = await scrapeUntil(metricsUrl, 'three pending deliveries', (now) => {
      return now.value('tps_outbox_depth') === 3 && now.value('tps_outbox_oldest_age_seconds') > 0;
    });
    // Read a moment ago, not by the scrape.
    expect(backlog.value('tps_outbox_read_age_seconds')).toBeLessThan(5);
    expect(backlog.value('tps_webhook_attempts_total', { outcome: 'delivered' })).toBe(
      afterDelivered.value('tps_webhook_attempts_total', { outcome: 'delivered' }),
    );
  });
});

describe('storage failures in the metrics', () => {
  let stack: Stack;

  afterAll(async () => {
    await stack?.stop();
  });

  it('counts each request refused because the storage failed (503 INT-002)', async () => {
    stack = await Stack.start({ apiEnv: { METRICS_PORT: '0' } });
    const metricsUrl = `http://127.0.0.1:${/metrics on port (\d+)/.exec(stack.api.log)?.[1]}`;
    const before = await scrape(metricsUrl);
    // An immutable database file: every write fails as a full or read-only disk makes it fail.
    const files = [stack.apiDatabase, `${stack.apiDatabase}-wal`];
    const codes: string[] = [];
    execFileSync('chattr', ['+i', ...files]);
    try {
      for (let n = 0; n < 4; n += 1) {
        const answer = await stack.client().post('/terminal/v1/SIM0000002/sync/charge', scenarioBody('00'));
        codes.push(answer.status === 200 ? 'ok' : `${answer.status} ${String(answer.body.code)}`);
      }
    } finally {
      execFileSync('chattr', ['-i', ...files]);
    }
    const refused = codes.filter((code) => code === '503 INT-002').length;
    expect(refused).toBeGreaterThan(0);
    expect(codes.filter((code) => code !== 'ok' && code !== '503 INT-002')).toEqual([]);
    const after = await scrape(metricsUrl);
    expect(after.value('tps_storage_failures_total') - before.value('tps_storage_failures_total')).toBe(
      refused,
    );
    expect(after.value('http_requests_total', { status: '503' })).toBe(refused);
  });
});

describe('metrics on the API port behind METRICS_TOKEN', () => {
  const token = 'metrics-token-0123456789';
  let stack: Stack;

  beforeAll(async () => {
    stack = await Stack.start({ withoutSimulator: true, apiEnv: { METRICS_TOKEN: token } });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it.each([
    ['no Authorization header', {}],
    ['a wrong token', { authorization: 'Bearer metrics-token-wrong-0000' }],
    ['the token without its scheme', { authorization: token }],
  ])('answers 401 AUTH-001 to %s', async (_case, headers: Record<string, string>) => {
    const response = await fetch(`${stack.apiUrl}/metrics`, { headers });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
    expect(await response.json()).toEqual({
      type: 'AUTHENTICATION',
      code: 'AUTH-001',
      message: 'GET /metrics needs its bearer token',
      request_id: response.headers.get('request-id'),
    });
  });

  it('answers the metrics with the token', async () => {
    await fetch(`${stack.apiUrl}/health`);
    const now = await scrape(stack.apiUrl, { authorization: `Bearer ${token}` });
    expect(now.value('http_requests_total', { method: 'GET', route: '/health', status: '200' })).toBe(1);
    expect(now.value('tps_terminal_links_up')).toBe(0);
  });
});

describe('no metrics route when neither METRICS_PORT nor METRICS_TOKEN is set', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await Stack.start({ withoutSimulator: true });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('answers /metrics with 404 NF-000, bearer or not', async () => {
    const tries: Array<Record<string, string>> = [{}, { authorization: 'Bearer anything-at-all-0123' }];
    for (const headers of tries) {
      const response = await fetch(`${stack.apiUrl}/metrics`, { headers });
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ code: 'NF-000' });
    }
  });
});
