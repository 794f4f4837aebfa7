import { poll, SEEDED_SERIALS, SignedClient, OTHER_MERCHANT } from '@tps/testing';
import { Replicas } from './cluster-replicas';
import { type Json } from './payment-helpers';

/**
 * Longer than it takes both replicas to exchange their counts (100 ms while admitting, 1 s while
 * idle), with room for a busy machine.
 */
const EXCHANGED_MS = 2500;

describe('rate limits held between API replicas on one PostgreSQL database', () => {
  let replicas: Replicas;
  let a: SignedClient;
  let b: SignedClient;

  beforeAll(async () => {
    replicas = new Replicas({
      RATE_LIMIT_MAX: '20',
      RATE_LIMIT_WINDOW_MS: '600000',
      ACCOUNT_RATE_LIMIT_MAX: '2',
      ACCOUNT_RATE_LIMIT_WINDOW_MS: '600000',
    });
    const [first, second] = await replicas.start(2);
    await replicas.startSimulator(first);
    await poll(
      'the seeded terminals to link',
      async () => {
        const health = (await (await fetch(`${first.url}/health`)).json()) as Json;
        return health.linked_terminals >= SEEDED_SERIALS.length ? true : undefined;
      },
      10_000,
    );
    a = new SignedClient(first.url).as(OTHER_MERCHANT);
    b = new SignedClient(second.url).as(OTHER_MERCHANT);
  });

  afterAll(async () => {
    await replicas.stop();
  });

  async function statuses(client: SignedClient, count: number): Promise<number[]> {
    const answers: number[] = [];
    for (let n = 0; n < count; n++) answers.push((await client.get('/sandbox/clock')).status);
    return answers;
  }

  it("counts a merchant's requests on A against its limit on B", async () => {
    expect(await statuses(a, 15)).toEqual(Array(15).fill(200));
    await new Promise((resolve) => setTimeout(resolve, EXCHANGED_MS));
    const onB = await statuses(b, 10);
    expect(onB).toEqual([...Array(5).fill(200), ...Array(5).fill(429)]);
    const refused = await b.get<Json>('/sandbox/clock');
    expect(refused.body.code).toBe('RATE-001');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('counts account creations from one address on A against the limit on B', async () => {
    const create = (url: string) =>
      fetch(`${url}/sandbox/accounts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
    const [first, second] = replicas.apis;
    expect((await create(first.url)).status).toBe(201);
    expect((await create(first.url)).status).toBe(201);
    await new Promise((resolve) => setTimeout(resolve, EXCHANGED_MS));
    const third = await create(second.url);
    expect([third.status, ((await third.json()) as Json).code]).toEqual([429, 'RATE-001']);
  });
});

describe("an account's quota of requests per second held between API replicas (hosted mode)", () => {
  const PER_SECOND = 5;
  let replicas: Replicas;

  beforeAll(async () => {
    // A ten-minute "second": both replicas exchange their counts well within it, however busy.
    replicas = new Replicas({
      HOSTED_MODE: 'true',
      QUOTA_REQUESTS_PER_SECOND: String(PER_SECOND),
      QUOTA_SECOND_MS: '600000',
    });
    await replicas.start(2);
  });

  afterAll(async () => {
    await replicas.stop();
  });

  it("counts an account's requests on A against its quota on B, and not another account's", async () => {
    const [first, second] = replicas.apis;
    const onA = await Promise.all(
      Array.from({ length: PER_SECOND - 1 }, () => new SignedClient(first.url).get('/sandbox/clock')),
    );
    expect(onA.map((answer) => answer.status)).toEqual(Array(PER_SECOND - 1).fill(200));
    await new Promise((resolve) => setTimeout(resolve, EXCHANGED_MS));
    const demoOnB = new SignedClient(second.url);
    expect((await demoOnB.get('/sandbox/clock')).status).toBe(200);
    const refused = await demoOnB.get<Json>('/sandbox/clock');
    expect([refused.status, refused.body.code]).toEqual([429, 'RATE-001']);
    expect(refused.body.message).toMatch(/quota of 5 requests per second/);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await new SignedClient(second.url).as(OTHER_MERCHANT).get('/sandbox/clock')).status).toBe(200);
  });
});
