import { randomUUID } from 'node:crypto';
import { SignedClient, Stack, type ClientResponse } from '@tps/testing';
import { amountOf, type Json } from './payment-helpers';
import { describeOnStores } from './stores';

const TOKEN = 'hosted-e2e-account-token-0123';
const PER_SECOND = 10;
const ACCOUNTS_PER_ADDRESS = 8;
const DAY_MS = 24 * 60 * 60 * 1000;
const MEXICO_CITY_OFFSET_MS = -6 * 60 * 60 * 1000;

const HOSTED = {
  HOSTED_MODE: 'true',
  ACCOUNT_CREATION_TOKEN: TOKEN,
  ACCOUNT_RATE_LIMIT_MAX: String(ACCOUNTS_PER_ADDRESS),
  QUOTA_TERMINALS: '3',
  QUOTA_REQUESTS_PER_SECOND: String(PER_SECOND),
  QUOTA_TRANSACTIONS_PER_DAY: '2',
  // A minute-long "second", so that a burst stays inside it on a busy machine.
  QUOTA_SECOND_MS: '60000',
};

function createAccount(stack: Stack, authorization: string | undefined, body: Json = {}): Promise<Response> {
  return fetch(`${stack.apiUrl}/sandbox/accounts`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(authorization === undefined ? {} : { authorization }),
    },
    body: JSON.stringify(body),
  });
}

async function newAccount(stack: Stack, body: Json = {}): Promise<{ client: SignedClient; account: Json }> {
  const response = await createAccount(stack, `Bearer ${TOKEN}`, body);
  const account = (await response.json()) as Json;
  expect(response.status).toBe(201);
  return {
    account,
    client: stack.client().as({ merchantId: account.merchant_id, secret: account.secret_key }),
  };
}

/** `count` requests of one merchant at once: their statuses, and the refusals' answers. */
async function burst(client: SignedClient, count: number): Promise<Array<ClientResponse<Json>>> {
  return Promise.all(Array.from({ length: count }, () => client.get<Json>('/sandbox/clock')));
}

/** Whole seconds from the merchant's clock reading to the next Mexico City midnight. */
function secondsToMidnight(clockNow: string): number {
  const local = Date.parse(clockNow) + MEXICO_CITY_OFFSET_MS;
  return Math.ceil((DAY_MS - (((local % DAY_MS) + DAY_MS) % DAY_MS)) / 1000);
}

/**
 * Hosted mode (contract, "Hosted mode"): account creation needs the operator's token, and each
 * account is held to its quotas of terminals, requests per second and transactions per day.
 */
describeOnStores('hosted mode: gated account creation and per-account quotas', (store) => {
  let stack: Stack;

  beforeAll(async () => {
    // The demo merchants only read in hosted mode: their terminals are left as seeded.
    stack = await Stack.start({ store, apiEnv: HOSTED, instant: [] });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('makes an account only with the token (401 AUTH-003), and a refusal spends no address budget', async () => {
    const refusals = [
      '',
      'Bearer ',
      'Bearer not-the-token-at-all-0123',
      `Basic ${TOKEN}`,
      `Bearer ${TOKEN}x`,
    ];
    // More refusals than the address may make accounts: they must not use its budget up.
    for (let round = 0; round < 2; round++) {
      for (const authorization of refusals) {
        const refused = await createAccount(stack, authorization === '' ? undefined : authorization);
        expect(refused.status).toBe(401);
        expect(await refused.json()).toMatchObject({ type: 'AUTHENTICATION', code: 'AUTH-003' });
      }
    }
    const { account } = await newAccount(stack);
    expect(account.merchant_id).toMatch(/^acct_/);
  });

  it('holds an account to its quota of terminals: 400 PAR-002 at creation, 409 TER-005 when adding', async () => {
    const tooMany = await createAccount(stack, `Bearer ${TOKEN}`, { terminals: 4 });
    expect(tooMany.status).toBe(400);
    expect(await tooMany.json()).toMatchObject({ code: 'PAR-002', param: 'terminals' });
    const { client } = await newAccount(stack, { terminals: 2 });
    expect((await client.post<Json>('/sandbox/terminals', { pace: 'instant' })).status).toBe(201);
    const full = await client.post<Json>('/sandbox/terminals', { pace: 'instant' });
    expect(full.status).toBe(409);
    expect(full.body).toMatchObject({ type: 'TERMINAL', code: 'TER-005' });
    expect((await client.get<Json[]>('/sandbox/terminals')).body).toHaveLength(3);
  });

  it('holds each account to its requests per second (429 RATE-001, Retry-After), apart from the others', async () => {
    const [{ client: a }, { client: b }] = [await newAccount(stack), await newAccount(stack)];
    const [onA, onB] = await Promise.all([burst(a, PER_SECOND + 3), burst(b, PER_SECOND + 3)]);
    for (const answers of [onA, onB]) {
      expect(answers.filter((answer) => answer.status === 200)).toHaveLength(PER_SECOND);
      const refused = answers.filter((answer) => answer.status !== 200);
      expect(refused).toHaveLength(3);
      for (const answer of refused) {
        expect([answer.status, answer.body.code]).toEqual([429, 'RATE-001']);
        expect(answer.body.message).toMatch(/quota of 10 requests per second/);
        const retryAfter = Number(answer.headers.get('retry-after'));
        expect(retryAfter).toBeGreaterThan(0);
        expect(retryAfter).toBeLessThanOrEqual(60);
      }
    }
  });

  it("holds an account to its transactions of the sandbox clock's day; a refused charge leaves no record", async () => {
    const { client } = await newAccount(stack, { terminals: 1 });
    const charge = (id: string) =>
      client.post<Json>('/terminal/v1/sync/charge', { amount: amountOf(10_000), client_transaction_id: id });
    const first = randomUUID();
    const answered = await charge(first);
    expect([answered.status, answered.body.approved]).toEqual([200, true]);
    expect((await charge(randomUUID())).status).toBe(200);

    const third = randomUUID();
    const refused = await charge(third);
    expect([refused.status, refused.body.code]).toEqual([429, 'RATE-001']);
    const clock = await client.get<Json>('/sandbox/clock');
    const untilMidnight = secondsToMidnight(clock.body.now);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(untilMidnight);
    expect(retryAfter).toBeLessThanOrEqual(untilMidnight + 5);
    const searched = await client.post<Json>('/terminal/v1/sync/transaction_search_online', {
      client_transaction_id: third,
    });
    expect(searched.body.items).toEqual([]);

    // A repeat adds no transaction: answered from its record, as ever.
    expect((await charge(first)).body).toEqual(answered.body);

    // The sandbox clock's next day: the refused id runs, as a new request.
    const moved = await client.post<Json>('/sandbox/clock', { advance_seconds: untilMidnight + 1 });
    expect(moved.status).toBe(200);
    const next = await charge(third);
    expect([next.status, next.body.approved]).toEqual([200, true]);
  });
});
