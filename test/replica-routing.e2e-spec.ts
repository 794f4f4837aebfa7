import { randomUUID } from 'node:crypto';
import { OTHER_MERCHANT, SEEDED_SERIALS, Stack, poll, type SignedClient } from '@tps/testing';
import { LiveReader } from './live-reader';
import { amountOf, ensureDaytime, type Json } from './payment-helpers';

/**
 * Several API replicas on one PostgreSQL database (contract, scale-out): the simulator links to
 * one of them, and a request asked of any replica reaches the terminal's link wherever it is.
 */
const REPLICAS = 3;

/** The client of the seeded terminal's merchant on replica `n`. */
function clientFor(stack: Stack, n: number, serial: string): SignedClient {
  const client = stack.clientOf(n);
  return serial === 'SIM0000003' ? client.as(OTHER_MERCHANT) : client;
}

function charge(client: SignedClient, path: string, id: string = randomUUID()) {
  return client.post<Json>(path, { amount: amountOf(10_000), client_transaction_id: id });
}

describe('requests routed between API replicas', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await Stack.start({ store: 'postgres', replicas: REPLICAS });
    await ensureDaytime(stack.client());
    await ensureDaytime(stack.client().as(OTHER_MERCHANT));
  }, 60_000);

  afterAll(async () => {
    await stack?.stop();
  });

  it('every replica is ready once the fleet is linked to one of them', async () => {
    for (let n = 0; n < REPLICAS; n++) {
      const ready = await fetch(`${stack.replicas[n].url}/ready`);
      expect({ replica: n, status: ready.status, body: await ready.json() }).toEqual({
        replica: n,
        status: 200,
        body: { ready: true },
      });
    }
  });

  it('reaches every terminal from every replica, Cloud and Local form, each charge approved once', async () => {
    const asked: Array<{ replica: number; path: string; client: SignedClient; id: string }> = [];
    for (let round = 0; round < 2; round++) {
      for (let n = 0; n < REPLICAS; n++) {
        for (const serial of SEEDED_SERIALS) {
          asked.push({
            replica: n,
            path: `/terminal/v1/${serial}/sync/charge`,
            client: clientFor(stack, n, serial),
            id: randomUUID(),
          });
        }
        asked.push({
          replica: n,
          path: '/terminal/v1/sync/charge',
          client: stack.clientOf(n),
          id: randomUUID(),
        });
      }
    }
    for (const request of asked) {
      const response = await charge(request.client, request.path, request.id);
      expect({
        replica: request.replica,
        path: request.path,
        status: response.status,
        approved: response.body.approved,
      }).toEqual({
        replica: request.replica,
        path: request.path,
        status: 200,
        approved: true,
      });
    }
    const rows = await stack.store.rows<{ n: number }>(
      'api',
      `SELECT COUNT(*) AS n FROM transactions WHERE client_transaction_id IN (${asked.map(() => '?').join(',')})`,
      asked.map((request) => request.id),
    );
    expect(rows[0].n).toBe(asked.length);
    // A reply taken from its word leaves its row to be removed with others, within a second.
    await poll(
      'no routed request left',
      async () => {
        const left = await stack.store.rows<{ n: number }>(
          'api',
          'SELECT COUNT(*) AS n FROM routed_requests',
        );
        return left[0].n === 0 ? true : undefined;
      },
      5_000,
    );
  }, 60_000);

  it('one charge for an id sent to two replicas at once, both answered its outcome', async () => {
    const ids = Array.from({ length: 100 }, () => randomUUID());
    const answers = [];
    // One pair at a time: a terminal runs one operation at once, and refuses a second (409).
    for (const [n, id] of ids.entries()) {
      const path = '/terminal/v1/SIM0000002/sync/charge';
      const [first, second] = await Promise.all([
        charge(stack.clientOf(n % REPLICAS), path, id),
        charge(stack.clientOf((n + 1) % REPLICAS), path, id),
      ]);
      answers.push({ id, first, second });
    }
    for (const { id, first, second } of answers) {
      expect({ id, statuses: [first.status, second.status].sort() }).toEqual({ id, statuses: [200, 200] });
      expect(second.body.rawResponse.transaction_reference).toBe(
        first.body.rawResponse.transaction_reference,
      );
    }
    const rows = await stack.store.rows<{ id: string; n: number }>(
      'api',
      `SELECT client_transaction_id AS id, COUNT(*) AS n FROM transactions
       WHERE client_transaction_id IN (${ids.map(() => '?').join(',')}) GROUP BY client_transaction_id`,
      ids,
    );
    expect(rows).toHaveLength(ids.length);
    expect(rows.filter((row) => row.n !== 1)).toEqual([]);
  }, 120_000);

  it("a console's live stream on one replica sees the events of a charge made on another", async () => {
    const reader = await LiveReader.open(stack.replicas[2].url);
    try {
      expect(reader.status).toBe(200);
      const id = randomUUID();
      const response = await charge(stack.clientOf(1), '/terminal/v1/SIM0000002/sync/charge', id);
      expect(response.status).toBe(200);
      await reader.waitFor('the approval on the stream', (messages) =>
        messages.some(
          (m) => m.type === 'event' && m.event.client_transaction_id === id && m.event.status === 'APPROVAL',
        ),
      );
    } finally {
      reader.close();
    }
  });
});
