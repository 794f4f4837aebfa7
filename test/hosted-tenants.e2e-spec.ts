import { createHash } from 'node:crypto';
import { SignedClient, Stack, type Credentials } from '@tps/testing';
import type { Json } from './payment-helpers';

interface Account {
  client: SignedClient;
  credentials: Credentials;
  merchantId: string;
  serials: string[];
}

async function newAccount(stack: Stack): Promise<Account> {
  const response = await fetch(`${stack.apiUrl}/sandbox/accounts`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ terminals: 1 }),
  });
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

/** Contract §22, "Tenants of a hosted sandbox": no answer tells one tenant about another's things. */
describe('hosted mode: tenants', () => {
  let stack: Stack;
  let owner: Account;
  let prober: Account;

  beforeAll(async () => {
    stack = await Stack.start({ apiEnv: { HOSTED_MODE: 'true' } });
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
});
