import { randomUUID } from 'node:crypto';
import { createInstantTerminals, poll, Stack, TcpFaultProxy } from '@tps/testing';
import { amountOf, everyOnline, type Json } from './payment-helpers';
import { scrape } from './prometheus-scrape';

const ACQUIRE_MS = 1000;
const STATEMENT_MS = 1000;
/** The client's own margin past the statement timeout, for a server that does not answer at all. */
const CLIENT_MARGIN_MS = 1000;
/**
 * The bound the contract states for a request that starts waiting on a stalled database: two
 * waits at most (the one that failed, and the read that tells 503 from 504), each a connection
 * and a statement, and 1 s to spare.
 */
const BOUND_MS = 2 * (ACQUIRE_MS + STATEMENT_MS + CLIENT_MARGIN_MS) + 1000;
const TERMINALS = 6;
/** The health's threshold, and the latency the proxy adds each way to pass it. */
const DEGRADED_MS = 100;
const LATENCY_MS = 150;

/**
 * Contract "The database a platform team runs", every wait bounded: with the API's PostgreSQL
 * stalled (a real proxy holding every byte), each signed charge is answered within the stated
 * bound, in §19's codes (503 INT-002 or 504 INT-003), never a hang or a 500; once the database
 * answers again, a retry with the same id converges to one outcome, stored once. Slow rather than
 * stalled, the health checks stay 200 and say the database is degraded.
 */
describe('Every wait on a stalled PostgreSQL bounded [postgres]', () => {
  let proxy: TcpFaultProxy;
  let stack: Stack;
  let metricsUrl: string;

  beforeAll(async () => {
    proxy = await TcpFaultProxy.start();
    stack = await Stack.start({
      store: 'postgres',
      routeDatabase: (app, url) => (app === 'api' ? proxy.route(url) : url),
      apiEnv: {
        DATABASE_ACQUIRE_TIMEOUT_MS: String(ACQUIRE_MS),
        DATABASE_STATEMENT_TIMEOUT_MS: String(STATEMENT_MS),
        DATABASE_LOCK_TIMEOUT_MS: String(STATEMENT_MS),
        DATABASE_DEGRADED_RTT_MS: String(DEGRADED_MS),
        METRICS_PORT: '0',
        METRICS_REFRESH_MS: '200',
      },
    });
    metricsUrl = `http://127.0.0.1:${/metrics on port (\d+)/.exec(stack.api.log)?.[1]}`;
  });

  afterAll(async () => {
    proxy?.release();
    await stack?.stop();
    await proxy?.close();
  });

  it('answers each charge within the bound in the contract codes; a same-id retry converges', async () => {
    const client = stack.client();
    const serials = await createInstantTerminals(client, TERMINALS);
    const charges = serials.flatMap((serial, t) =>
      [0, 1].map((n) => ({ serial, id: randomUUID(), total: 10000 + t * 100 + n })),
    );
    const send = (charge: (typeof charges)[number]) =>
      client.post<Json>(`/terminal/v1/${charge.serial}/sync/charge`, {
        amount: amountOf(charge.total),
        client_transaction_id: charge.id,
      });

    const before = await scrape(metricsUrl);
    expect(before.has('tps_database_pool_connections')).toBe(true);
    expect(before.has('tps_database_pool_waiting')).toBe(true);
    expect(before.value('tps_database_rtt_seconds')).toBeGreaterThan(0);
    proxy.stall();
    const answers = await Promise.all(
      charges.map(async (charge) => {
        const started = Date.now();
        const response = await send(charge);
        return { status: response.status, code: String(response.body.code), ms: Date.now() - started };
      }),
    );
    proxy.release();

    const outside = answers.filter(
      ({ status, code, ms }) =>
        ms > BOUND_MS || !((status === 503 && code === 'INT-002') || (status === 504 && code === 'INT-003')),
    );
    expect(outside).toEqual([]);
    // Each answer ended a wait at its bound (a connection, or a statement), which the metrics count.
    const after = await scrape(metricsUrl);
    const timeouts = (scraped: typeof after): number => scraped.value('tps_database_timeouts_total');
    expect(timeouts(after) - timeouts(before)).toBeGreaterThanOrEqual(answers.length);

    // Once the database answers again, the same ids converge: each answered 200, one outcome.
    const outcomes = new Map<string, boolean>();
    for (const charge of charges) {
      const deadline = Date.now() + 60_000;
      for (;;) {
        const response = await send(charge);
        if (response.status === 200) {
          outcomes.set(charge.id, response.body.approved === true);
          break;
        }
        expect([503, 504]).toContain(response.status);
        if (Date.now() > deadline) throw new Error(`${charge.id} never answered 200`);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
    const online = await everyOnline(client);
    for (const [id, approved] of outcomes) {
      expect(online.get(id)?.status).toBe(approved ? 'APPROVAL' : 'DECLINED');
    }
    const stored = await stack.store.rows<{ id: string; n: number }>(
      'api',
      'SELECT client_transaction_id AS id, COUNT(*) AS n FROM transactions GROUP BY client_transaction_id',
    );
    const ours = stored.filter((row) => outcomes.has(row.id));
    expect(ours.map((row) => row.n)).toEqual(charges.map(() => 1));
  }, 180_000);

  it('keeps /health and /ready 200 while the database is slow, saying it is degraded', async () => {
    const health = async (): Promise<{ status: number; body: Json }> => {
      const response = await fetch(`${stack.apiUrl}/health`);
      return { status: response.status, body: (await response.json()) as Json };
    };
    const quick = await health();
    expect(quick.status).toBe(200);
    expect(quick.body.database).toEqual({ state: 'up', rtt_ms: expect.any(Number) });
    const ready = async (): Promise<{ status: number; body: unknown }> => {
      const response = await fetch(`${stack.apiUrl}/ready`);
      return { status: response.status, body: await response.json() };
    };
    // Ready first, once the links the stall above cut are back: what follows is the slowness alone.
    await poll(
      'ready before the slowness',
      async () => ((await ready()).status === 200 ? true : undefined),
      30_000,
    );

    proxy.latencyMs = LATENCY_MS;
    try {
      const slow = await health();
      expect(slow.status).toBe(200);
      expect(slow.body.status).toBe('up');
      expect(slow.body.database.state).toBe('degraded');
      expect(slow.body.database.rtt_ms).toBeGreaterThanOrEqual(2 * LATENCY_MS);
      expect(await ready()).toEqual({ status: 200, body: expect.anything() });
    } finally {
      proxy.latencyMs = 0;
    }
  }, 60_000);
});
