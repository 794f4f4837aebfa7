import { randomUUID } from 'node:crypto';
import { OTHER_MERCHANT, SEEDED_SERIALS, Stack, poll, type SignedClient } from '@tps/testing';
import { LiveReader } from './live-reader';
import {
  amountOf,
  ensureDaytime,
  everyOnline,
  lostAnswers,
  type AnsweredCharge,
  type Json,
} from './payment-helpers';

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
    const left = await stack.store.rows<{ n: number }>('api', 'SELECT COUNT(*) AS n FROM routed_requests');
    expect(left[0].n).toBe(0);
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

/** The answers a charge may meet while a replica dies: each means "ask again with the same id". */
const RETRIED: Record<number, string[]> = { 503: ['TER-001'], 504: ['TER-002'], 409: ['TER-003', 'TER-004'] };

describe('a replica killed under load', () => {
  const TERMINALS = 6;
  let stack: Stack;

  beforeAll(async () => {
    stack = await Stack.start({
      store: 'postgres',
      replicas: REPLICAS,
      // Short, so that a charge whose terminal never took it is asked of the terminal soon.
      apiEnv: { TERMINAL_REPLY_TIMEOUT_MS: '5000' },
    });
  }, 60_000);

  afterAll(async () => {
    await stack?.stop();
  });

  it('loses no answered charge; its terminals link again within 3 s; a same-id retry answers the outcome', async () => {
    // An account of its own, made on the replica that holds the simulator's control link.
    const account = await stack
      .clientOf(0)
      .post<Json>('/sandbox/accounts', { terminals: TERMINALS, pace: 'instant' });
    expect(account.status).toBe(201);
    const credentials = {
      merchantId: account.body.merchant_id as string,
      secret: account.body.secret_key as string,
    };
    const serials = (account.body.terminals as Json[]).map((terminal) => terminal.serialNumber as string);
    await ensureDaytime(stack.clientOf(1).as(credentials));
    const alive = new Set([0, 1, 2]);
    const answered = new Map<string, AnsweredCharge>();
    const unexpected: string[] = [];
    let killed = false;
    let next = 0;

    /** One charge, its id asked again of the live replicas in turn until it is answered 200. */
    async function chargeOnce(serial: string): Promise<void> {
      const id = randomUUID();
      for (let attempt = 0; attempt < 200; attempt++) {
        const replicas = [...alive];
        const client = stack.clientOf(replicas[next++ % replicas.length]).as(credentials);
        const response = await charge(client, `/terminal/v1/${serial}/sync/charge`, id).catch(
          () => undefined,
        );
        if (response?.status === 200) {
          const raw = response.body.rawResponse as Json;
          answered.set(id, {
            approved: response.body.approved === true,
            reference: raw.transaction_reference ?? null,
          });
          return;
        }
        if (response !== undefined && !RETRIED[response.status]?.includes(response.body.code as string)) {
          unexpected.push(`${response.status} ${JSON.stringify(response.body)}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      unexpected.push(`${id} never answered`);
    }

    const load = Promise.all(
      serials.map(async (serial) => {
        while (!killed || answered.size < 120) await chargeOnce(serial);
      }),
    );
    await poll('charges under way', async () => (answered.size >= 30 ? true : undefined), 30_000);
    // The replica the simulator linked to holds every link: it dies with operations in flight.
    alive.delete(0);
    await stack.replicas[0].kill();
    killed = true;
    // Linked again to a live replica, as the stored ownership shows (the dead one's rows linger).
    const dead = `%-${stack.replicas[0].pid}`;
    const fleet = SEEDED_SERIALS.length + TERMINALS;
    await poll(
      'every terminal linked to a live replica',
      async () => {
        const [row] = await stack.store.rows<{ n: number }>(
          'api',
          'SELECT COUNT(*) AS n FROM terminal_uplinks WHERE replica_id NOT LIKE ?',
          [dead],
        );
        return row.n === fleet ? true : undefined;
      },
      3000,
    );
    await stack.waitReady(1);
    await load;
    expect(unexpected).toEqual([]);
    const online = await everyOnline(stack.clientOf(1).as(credentials));
    expect(lostAnswers(answered, online)).toEqual([]);
  }, 180_000);
});
