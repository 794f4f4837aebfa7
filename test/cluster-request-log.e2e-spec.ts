import { setTimeout as sleep } from 'node:timers/promises';
import { SignedClient, Stack, type AppProcess } from '@tps/testing';

interface RequestRecord {
  at: string;
  method: string;
  path: string;
  status: number;
  request_id: string;
}

const KEPT = 100;

/**
 * Several replicas on one PostgreSQL database (docs/contract.md, "Request ids"): a merchant's
 * request log lists the requests whichever replica answered them, the last 100, newest first, and
 * the database keeps no more than those.
 */
describe('a merchant’s request log across replicas [postgres]', () => {
  let stack: Stack;
  let answering: AppProcess;
  let asked: AppProcess;

  beforeAll(async () => {
    stack = await Stack.start({ store: 'postgres', replicas: 2, withoutSimulator: true });
    [answering, asked] = stack.replicas;
  }, 60_000);

  afterAll(async () => {
    await stack?.stop();
  });

  it('lists on one replica the last 100 requests another answered, newest first', async () => {
    const client = new SignedClient(answering.url);
    const ids: string[] = [];
    for (let n = 0; n < KEPT + 5; n++) {
      const response = await client.get('/sandbox/clock');
      expect(response.status).toBe(200);
      ids.push(String(response.headers.get('request-id')));
    }
    // Written in batches at most 0.1 s after the answers (contract): one read, well after.
    await sleep(1_000);
    const log = await new SignedClient(asked.url).get<RequestRecord[]>('/sandbox/requests');
    expect(log.status).toBe(200);
    const listed = log.body;
    expect(listed.map((record) => record.request_id)).toEqual(ids.slice(5).reverse());
    const stored = await stack.store.rows<{ n: number }>(
      'api',
      "SELECT COUNT(*) AS n FROM merchant_requests WHERE merchant_id = 'demo-merchant'",
    );
    expect(Number(stored[0].n)).toBeLessThanOrEqual(KEPT + 1);
  }, 30_000);
});
