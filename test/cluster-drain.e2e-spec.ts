import { randomUUID } from 'node:crypto';
import { poll, SEEDED_SERIALS, SignedClient, type AppProcess } from '@tps/testing';
import { Replicas } from './cluster-replicas';
import { amountOf, type Json } from './payment-helpers';

/** What a caller may see from a replica that is stopping: nothing but a refusal it can retry. */
type Answer =
  { status: number; code?: string; retryAfter: string | null } | { refused: true } | { error: string };

async function ask(call: () => Promise<{ status: number; headers: Headers; body: Json }>): Promise<Answer> {
  try {
    const response = await call();
    return {
      status: response.status,
      code: response.body.code as string | undefined,
      retryAfter: response.headers.get('retry-after'),
    };
  } catch (error) {
    // Refused before anything was sent: a balancer moves on, a caller retries elsewhere.
    const cause = (error as { cause?: { code?: string } }).cause;
    if (cause?.code === 'ECONNREFUSED') return { refused: true };
    return { error: String(cause?.code ?? error) };
  }
}

async function linked(api: AppProcess, count: number): Promise<void> {
  await poll(
    `${count} terminals linked`,
    async () => {
      const health = (await (await fetch(`${api.url}/health`)).json()) as Json;
      return health.linked_terminals >= count ? true : undefined;
    },
    10_000,
  );
}

describe('a replica stopped with SIGTERM drains', () => {
  let replicas: Replicas;
  let a: AppProcess;
  let b: AppProcess;

  beforeAll(async () => {
    replicas = new Replicas();
    [a, b] = await replicas.start(2);
    await replicas.startSimulator(a);
    await linked(a, SEEDED_SERIALS.length);
    const client = new SignedClient(a.url);
    for (const serial of ['SIM0000001', 'SIM0000002']) {
      expect((await client.patch(`/sandbox/terminals/${serial}`, { pace: 'instant' })).status).toBe(200);
    }
  });

  afterAll(async () => {
    await replicas.stop();
  });

  it('under load: callers see only retryable refusals, and every 2xx is stored', async () => {
    const clients = new Map([
      [a, new SignedClient(a.url)],
      [b, new SignedClient(b.url)],
    ]);
    const rotation = [a, b];
    const answers: Answer[] = [];
    let advanced = 0;
    let stopping = false;
    const charged: string[] = [];

    // Clock moves (writes) round-robin over both replicas; a refusal takes the replica out of the
    // rotation, as a balancer's health check would, and the same move goes to the other.
    const mover = async (): Promise<void> => {
      let turn = 0;
      while (!stopping || rotation.includes(b)) {
        const target = rotation[turn++ % rotation.length];
        const answer = await ask(() =>
          clients.get(target)!.post<Json>('/sandbox/clock', { advance_seconds: 1 }),
        );
        answers.push(answer);
        if ('status' in answer && answer.status === 200) advanced += 1;
        else if (target === b) rotation.splice(rotation.indexOf(b), 1);
      }
    };
    // Charges keep going on the replica that holds the terminals' links.
    const charger = async (serial: string): Promise<void> => {
      while (rotation.includes(b)) {
        const id = randomUUID();
        const response = await clients.get(a)!.post<Json>(`/terminal/v1/${serial}/sync/charge`, {
          amount: amountOf(20_000),
          client_transaction_id: id,
        });
        expect(response.status).toBe(200);
        charged.push(id);
      }
    };
    const load = [mover(), mover(), mover(), charger('SIM0000001'), charger('SIM0000002')];
    await new Promise((resolve) => setTimeout(resolve, 1000));
    stopping = true;
    const exitCode = await b.terminate();
    await Promise.all(load);

    expect(exitCode).toBe(0);
    expect(b.log).toMatch(/SIGTERM: draining \d+ requests in flight/);
    const unexpected = answers.filter(
      (answer) =>
        !('refused' in answer) &&
        !('status' in answer && answer.status === 200) &&
        !(
          'status' in answer &&
          answer.status === 503 &&
          answer.code === 'INT-002' &&
          answer.retryAfter === '1'
        ),
    );
    expect(unexpected).toEqual([]);
    expect(advanced).toBeGreaterThan(0);
    const clock = await clients.get(a)!.get<Json>('/sandbox/clock');
    expect(clock.body.offset_seconds).toBe(advanced);
    const stored = await replicas.store.rows<{ n: number }>(
      'api',
      `SELECT COUNT(*) AS n FROM transactions WHERE client_transaction_id = ANY(?)`,
      [charged],
    );
    expect(stored[0].n).toBe(charged.length);
  });

  it('with 30 requests in flight, answers every one of them and exits by itself within its drain time, closing no connection under a caller', async () => {
    // Thirty terminals held by A; the charges go to a replica C, which hands each to A through
    // the database and waits: C has 30 requests in flight when it is told to stop.
    const onA = new SignedClient(a.url);
    const serials = Array.from({ length: 30 }, (_, n) => `DRAIN${String(n).padStart(5, '0')}`);
    for (const serial of serials)
      expect((await onA.post<Json>('/sandbox/terminals', { serial, pace: 'instant' })).status).toBe(201);
    await linked(a, SEEDED_SERIALS.length + serials.length);
    const [c] = await replicas.start(1);
    const onC = new SignedClient(c.url);
    // The client checks each answer against the served document: read while C still serves it.
    expect((await onC.get<Json>('/sandbox/clock')).status).toBe(200);
    const ids = serials.map(() => randomUUID());
    // Ending in 95: the acquirer answers only after 10 s, so every charge is in flight during the drain.
    const charges = serials.map((serial, n) =>
      ask(() =>
        onC.post<Json>(`/terminal/v1/${serial}/sync/charge`, {
          amount: amountOf(20_095),
          client_transaction_id: ids[n],
        }),
      ),
    );
    await poll(
      'the 30 charges to be under way',
      async () => {
        const rows = await replicas.store.rows<{ n: number }>(
          'api',
          'SELECT COUNT(*) AS n FROM transactions WHERE client_transaction_id = ANY(?)',
          [ids],
        );
        return Number(rows[0].n) === ids.length ? true : undefined;
      },
      20_000,
    );
    const exitCode = await c.terminate();
    const answers = await Promise.all(charges);

    expect(exitCode).toBe(0);
    expect(c.log).toMatch(/SIGTERM: draining 30 requests in flight/);
    // All answered: none met the drain's deadline (DRAIN_TIMEOUT_MS), which would have been a 504.
    expect(answers).toEqual(ids.map(() => ({ status: 200, code: undefined, retryAfter: null })));
    expect(c.log).not.toMatch(/Cannot use a pool after calling end|Driver not Connected|ECONNRESET/);
  });

  it('finishes the operation it has in flight, refusing new requests meanwhile, then lets its terminals go', async () => {
    const client = new SignedClient(a.url);
    // Ending in 95: the acquirer answers only after 10 s, so the charge is in flight during the drain.
    const id = randomUUID();
    const slow = client.post<Json>('/terminal/v1/SIM0000002/sync/charge', {
      amount: amountOf(20_095),
      client_transaction_id: id,
    });
    await poll(
      'the slow charge to be under way',
      async () => {
        const rows = await replicas.store.rows<{ n: number }>(
          'api',
          'SELECT COUNT(*) AS n FROM transactions WHERE client_transaction_id = ?',
          [id],
        );
        return rows[0].n > 0 ? true : undefined;
      },
      10_000,
    );
    const exited = a.terminate();
    await poll('the drain to start', async () => (/SIGTERM: draining/.test(a.log) ? true : undefined), 5000);

    const refused = await client.post<Json>('/sandbox/clock', { advance_seconds: 1 });
    expect([refused.status, refused.body.code, refused.headers.get('retry-after')]).toEqual([
      503,
      'INT-002',
      '1',
    ]);
    expect(refused.headers.get('connection')).toBe('close');
    const health = await fetch(`${a.url}/health`);
    expect(health.status).toBe(503);
    expect(await health.json()).toMatchObject({ status: 'down' });

    const answer = await slow;
    expect([answer.status, answer.body.approved]).toEqual([200, true]);
    expect(await exited).toBe(0);
    expect(a.log).toMatch(/SIGTERM: draining 1 requests in flight/);
  });

  it('refuses what its callers still send after the last request in flight, rather than closing under them', async () => {
    // Nothing in flight when the signal comes: a replica that closed at once would reset the
    // requests its callers had already sent on their kept-alive connections. Its quiet time is
    // longer than the time this suite takes to see the drain start in the log, on a busy machine.
    const [c] = await replicas.start(1, { DRAIN_QUIET_MS: '3000' });
    const client = new SignedClient(c.url);
    expect((await client.post<Json>('/sandbox/clock', { advance_seconds: 0 })).status).toBe(200);
    const exited = c.terminate();
    await poll('the drain to start', async () => (/SIGTERM: draining/.test(c.log) ? true : undefined), 5000);
    const answers: Answer[] = [];
    for (let sent = 0; sent < 6; sent += 1) {
      answers.push(await ask(() => client.post<Json>('/sandbox/clock', { advance_seconds: 0 })));
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(answers).toEqual(
      Array.from({ length: 6 }, () => ({ status: 503, code: 'INT-002', retryAfter: '1' })),
    );
    // Then, with nobody sending, it closes by itself.
    expect(await exited).toBe(0);
  });
});
