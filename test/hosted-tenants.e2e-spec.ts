import { createHash } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { signRequest } from '@tps/contracts';
import { DEMO_MERCHANT, OTHER_MERCHANT, SignedClient, Stack, type Credentials } from '@tps/testing';
import type { Json } from './payment-helpers';

interface Account {
  client: SignedClient;
  credentials: Credentials;
  merchantId: string;
  serials: string[];
}

/** Accounts one client address may hold alive at once in this file's sandbox. */
const ALIVE = 4;

function createAccount(stack: Stack): Promise<Response> {
  return fetch(`${stack.apiUrl}/sandbox/accounts`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ terminals: 1 }),
  });
}

async function newAccount(stack: Stack): Promise<Account> {
  const response = await createAccount(stack);
  const account = (await response.json()) as Json;
  expect(response.status).toBe(201);
  const credentials = { merchantId: account.merchant_id as string, secret: account.secret_key as string };
  return {
    client: stack.client().as(credentials),
    credentials,
    merchantId: account.merchant_id,
    serials: (account.terminals as Json[]).map((terminal) => terminal.serialNumber as string),
  };
}

/** What a caller sees of an answer, the request id (new each time) left out. */
function seen(answer: { status: number; body: Json; headers: Headers }): unknown {
  const { request_id: _requestId, ...body } = answer.body;
  return { status: answer.status, body, retryAfter: answer.headers.get('retry-after') };
}

/** The status and body of a `listen` upgrade signed with these credentials (a refusal is plain HTTP). */
function listenUpgrade(stack: Stack, credentials: Credentials): Promise<{ status: number; body: Json }> {
  const path = '/sandbox/listen';
  const signed = signRequest({ ...credentials, method: 'GET', path, body: '' });
  return new Promise((resolve, reject) => {
    const upgrade = httpRequest(`${stack.apiUrl}${path}`, {
      headers: {
        authorization: signed.authorization,
        timestamp: signed.timestamp,
        connection: 'Upgrade',
        upgrade: 'websocket',
        'sec-websocket-version': '13',
        'sec-websocket-key': Buffer.from('sixteen byte key').toString('base64'),
      },
    });
    upgrade.on('response', (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) as Json }));
    });
    upgrade.on('upgrade', (_response, socket) => {
      socket.destroy();
      resolve({ status: 101, body: {} });
    });
    upgrade.on('error', reject);
    upgrade.end();
  });
}

/** Contract §22, "Hosted mode": no answer tells one tenant about another's things. */
describe('hosted mode: tenants', () => {
  let stack: Stack;
  let owner: Account;
  let prober: Account;

  beforeAll(async () => {
    // The demo merchants' terminals are left as seeded: their published credentials change nothing.
    stack = await Stack.start({
      apiEnv: { HOSTED_MODE: 'true', CAP_ACCOUNTS_ALIVE: String(ALIVE) },
      instant: [],
    });
    owner = await newAccount(stack);
    prober = await newAccount(stack);
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it("answers another tenant's serial exactly as a free serial this account may not choose", async () => {
    const taken = await prober.client.post<Json>('/sandbox/terminals', { serial: owner.serials[0] });
    const free = await prober.client.post<Json>('/sandbox/terminals', { serial: 'SIM0009999' });
    expect(taken.status).toBe(400);
    expect(taken.body).toMatchObject({ type: 'PARAMETER', code: 'PAR-002', param: 'serial' });
    expect(seen(taken)).toEqual(seen(free));

    // Within its own prefix an account chooses freely, and only its own serials are taken.
    const prefix = `${createHash('sha256').update(prober.merchantId).digest('hex').slice(0, 12)}-`;
    expect(taken.body.message).toContain(prefix);
    const made = await prober.client.post<Json>('/sandbox/terminals', { serial: `${prefix}LANE1` });
    expect(made.status).toBe(201);
    const again = await prober.client.post<Json>('/sandbox/terminals', { serial: `${prefix}LANE1` });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'TER-004', param: 'serial' });
  });

  describe.each([
    ['demo-merchant', DEMO_MERCHANT, 'SIM0000001'],
    ['other-merchant', OTHER_MERCHANT, 'SIM0000003'],
  ])('the published credentials of %s', (_name, credentials, serial) => {
    const refused = { type: 'AUTHENTICATION', code: 'AUTH-004' };

    it('read', async () => {
      const demo = stack.client().as(credentials);
      expect((await demo.get('/sandbox/terminals')).status).toBe(200);
      expect((await demo.get('/sandbox/clock')).status).toBe(200);
    });

    it('reset nothing, rotate no secret, control no terminal and charge nothing (403 AUTH-004)', async () => {
      const demo = stack.client().as(credentials);
      const attempts = [
        demo.post('/sandbox/reset'),
        demo.post('/sandbox/webhook-secret'),
        demo.post('/sandbox/webhook-secret/rotate', {}),
        demo.delete('/sandbox/webhook-secret'),
        demo.patch(`/sandbox/terminals/${serial}`, { pace: 'instant' }),
        demo.post(`/sandbox/terminals/${serial}/offline`),
        demo.post('/sandbox/terminals', {}),
        demo.post('/sandbox/clock', { advance_seconds: 60 }),
        demo.delete('/sandbox/accounts/me'),
        demo.post('/terminal/v1/sync/charge', {
          amount: { iva: 16, subtotal_iva: 100, subtotal_iva0: 0 },
          client_transaction_id: '6d0b3a5e-4a4b-4c8e-9d7e-1f2a3b4c5d6e',
        }),
      ];
      for (const answer of await Promise.all(attempts)) {
        expect([answer.status, answer.body]).toEqual([403, expect.objectContaining(refused)]);
      }
      // Nothing changed: the terminals are as seeded, and linked.
      const fleet = await demo.get<Json[]>('/sandbox/terminals');
      const terminal = fleet.body.find((t) => t.serialNumber === serial);
      expect(terminal).toMatchObject({ pace: 'realistic', link: 'up' });
    });

    it("never listen, so they take nobody's webhooks", async () => {
      const answer = await listenUpgrade(stack, credentials);
      expect([answer.status, answer.body]).toEqual([403, expect.objectContaining(refused)]);
    });
  });

  it("lets an account's own credentials listen", async () => {
    const answer = await listenUpgrade(stack, owner.credentials);
    expect(answer.status).toBe(101);
  });

  it('holds one client address to its cap of accounts alive (409 CAP-001), freed by a deletion', async () => {
    // The owner's and the prober's are alive already.
    const more = [await newAccount(stack), await newAccount(stack)];
    const refused = await createAccount(stack);
    const body = (await refused.json()) as Json;
    expect(refused.status).toBe(409);
    expect(body).toMatchObject({ type: 'CAPACITY', code: 'CAP-001' });
    expect(body.message).toContain(`accounts_alive = ${ALIVE}`);
    expect((await more[1].client.delete('/sandbox/accounts/me')).status).toBe(204);
    expect((await createAccount(stack)).status).toBe(201);
  });
});
