import { randomUUID } from 'node:crypto';
import { signRequest } from '@tps/contracts';
import { OTHER_MERCHANT, PAN_LIKE, sqliteRows, Stack, withoutTraceIds } from '@tps/testing';

const CHARGE_PATH = '/terminal/v1/SIM0000002/async/charge';

function chargeBody(): string {
  return JSON.stringify({
    amount: { iva: 1600, subtotal_iva: 10000, subtotal_iva0: 0 },
    client_transaction_id: randomUUID(),
  });
}

interface Answer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

async function send(
  baseUrl: string,
  path: string,
  body: string,
  headers: Record<string, string>,
): Promise<Answer> {
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as Record<string, unknown>,
  };
}

function signed(
  body: string,
  overrides: Partial<Parameters<typeof signRequest>[0]> = {},
): Record<string, string> {
  return {
    ...signRequest({
      merchantId: 'demo-merchant',
      secret: 'demo-secret-key',
      method: 'POST',
      path: CHARGE_PATH,
      body,
      ...overrides,
    }),
  };
}

const now = () => Math.floor(Date.now() / 1000);

describe('authentication of every request (contract §5)', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await Stack.start();
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it.each<[string, (body: string) => Record<string, string>]>([
    ['no Authorization header', (body) => ({ timestamp: signed(body).timestamp })],
    ['a Bearer token', (body) => ({ ...signed(body), authorization: 'Bearer abc' })],
    ['garbled base64', (body) => ({ ...signed(body), authorization: 'Basic %%%' })],
    [
      'no signature part',
      (body) => ({
        ...signed(body),
        authorization: `Basic ${Buffer.from('demo-merchant').toString('base64')}`,
      }),
    ],
    ['a wrong secret', (body) => signed(body, { secret: 'not-the-secret' })],
    ['an unknown merchant', (body) => signed(body, { merchantId: 'nobody' })],
    [
      'another merchant signing with its own secret as demo-merchant',
      (body) => signed(body, { secret: 'other-secret-key' }),
    ],
    ['a signature over another body', (body) => signed(`${body} `)],
    ['a signature over another path', () => signed(chargeBody(), { path: '/terminal/v1/async/charge' })],
  ])('answers %s with 401 AUTH-001', async (_case, headersFor) => {
    const body = chargeBody();
    const answer = await send(stack.apiUrl, CHARGE_PATH, body, headersFor(body));
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({
      type: 'AUTHENTICATION',
      code: 'AUTH-001',
      message: expect.any(String),
      request_id: answer.headers.get('request-id'),
    });
  });

  it.each<[string, (body: string) => Record<string, string>]>([
    ['a missing timestamp', (body) => ({ authorization: signed(body).authorization })],
    ['a non-numeric timestamp', (body) => ({ ...signed(body), timestamp: 'yesterday' })],
    ['a stale timestamp', (body) => signed(body, { timestamp: now() - 301 })],
    // Ten seconds beyond the tolerance: the server's clock reads a second or more later than this one.
    ['a future timestamp', (body) => signed(body, { timestamp: now() + 310 })],
    ['a timestamp in milliseconds', (body) => signed(body, { timestamp: Date.now() })],
  ])('answers %s with 401 AUTH-002', async (_case, headersFor) => {
    const body = chargeBody();
    const answer = await send(stack.apiUrl, CHARGE_PATH, body, headersFor(body));
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({
      type: 'AUTHENTICATION',
      code: 'AUTH-002',
      message: expect.any(String),
      request_id: answer.headers.get('request-id'),
    });
  });

  it('accepts a timestamp a few minutes off, inside the window', async () => {
    const body = chargeBody();
    // The Local form's terminal, so that this charge keeps SIM0000002 free for the next test.
    const local = '/terminal/v1/async/charge';
    const answer = await send(
      stack.apiUrl,
      local,
      body,
      signed(body, { path: local, timestamp: now() - 240 }),
    );
    expect(answer.status).toBe(200);
  });

  it.each(['basic', 'BASIC'])(
    'takes the scheme name written %p (scheme names are case-insensitive)',
    async (scheme) => {
      const headers = signRequest({
        merchantId: 'demo-merchant',
        secret: 'demo-secret-key',
        method: 'GET',
        path: '/sandbox/clock',
        body: '',
      });
      const response = await fetch(`${stack.apiUrl}/sandbox/clock`, {
        headers: { ...headers, authorization: headers.authorization.replace(/^Basic/, scheme) },
      });
      expect(response.status).toBe(200);
    },
  );

  it('answers a replayed charge with the first acknowledgement and charges once', async () => {
    const body = chargeBody();
    const headers = signed(body);
    const first = await send(stack.apiUrl, CHARGE_PATH, body, headers);
    const replays = await Promise.all([1, 2, 3].map(() => send(stack.apiUrl, CHARGE_PATH, body, headers)));
    expect(first.status).toBe(200);
    for (const replay of replays) {
      expect(replay.status).toBe(200);
      expect(replay.body).toEqual(first.body);
    }
    const id = (JSON.parse(body) as { client_transaction_id: string }).client_transaction_id;
    const rows = await sqliteRows(
      stack.apiDatabase,
      'SELECT id FROM transactions WHERE client_transaction_id = ?',
      [id],
    );
    expect(rows).toHaveLength(1);
  });

  it('answers an unknown route with 404 NF-000, signed or not', async () => {
    const client = stack.client();
    expect((await client.get('/terminal/v2/nothing')).body).toMatchObject({
      type: 'NOT_FOUND',
      code: 'NF-000',
    });
    const unsigned = await fetch(`${stack.apiUrl}/nothing/here`);
    expect(unsigned.status).toBe(404);
    expect(await unsigned.json()).toMatchObject({ type: 'NOT_FOUND', code: 'NF-000' });
  });

  it('serves health without credentials, and every other route only signed', async () => {
    expect((await fetch(`${stack.apiUrl}/health`)).status).toBe(200);
    const unsigned = await fetch(`${stack.apiUrl}/sandbox/terminals/SIM0000002`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ pace: 'instant' }),
    });
    expect(unsigned.status).toBe(401);
  });

  it('keeps secrets, signatures and Authorization values out of the logs', async () => {
    const body = chargeBody();
    const headers = signed(body, { secret: 'wrong-secret-value' });
    await send(stack.apiUrl, CHARGE_PATH, body, headers);
    await send(stack.apiUrl, CHARGE_PATH, body, signed(body));
    const logs = `${stack.api.log}\n${stack.simulator?.log ?? ''}`;
    for (const secret of ['demo-secret-key', 'other-secret-key', 'wrong-secret-value']) {
      expect(logs).not.toContain(secret);
    }
    expect(logs).not.toContain(headers.authorization.slice('Basic '.length));
    expect(withoutTraceIds(logs)).not.toMatch(PAN_LIKE);
  });
});

describe('rate limit per merchant', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await Stack.start({
      withoutSimulator: true,
      apiEnv: { RATE_LIMIT_MAX: '5', RATE_LIMIT_WINDOW_MS: '60000' },
    });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('answers 429 RATE-001 with Retry-After past the limit, counting only authenticated requests, per merchant', async () => {
    const client = stack.client();
    const forged = client.as({ merchantId: 'demo-merchant', secret: 'guessed' });
    for (let i = 0; i < 10; i += 1) {
      expect((await forged.patch('/sandbox/terminals/SIM0000002', { pace: 'instant' })).status).toBe(401);
    }
    for (let i = 0; i < 5; i += 1) {
      expect((await client.patch('/sandbox/terminals/SIM0000002', { pace: 'instant' })).status).toBe(200);
    }
    const limited = await client.patch('/sandbox/terminals/SIM0000002', { pace: 'instant' });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({
      type: 'RATE_LIMIT',
      code: 'RATE-001',
      message: expect.any(String),
      request_id: limited.headers.get('request-id'),
    });
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);

    const other = await client.as(OTHER_MERCHANT).patch('/sandbox/terminals/SIM0000003', { pace: 'instant' });
    expect(other.status).toBe(200);
  });
});
