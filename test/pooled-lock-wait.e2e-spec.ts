import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { createInstantTerminals, PgBouncer, Stack, type PoolMode } from '@tps/testing';
import { amountOf, everyOnline, type Json } from './payment-helpers';
import { scrape } from './prometheus-scrape';

const LOCK_MS = 1000;
/**
 * Well past the lock's bound: a write that waits on locks is answered by their timeouts (each
 * lock a statement waits for, at most LOCK_MS), before the statement's, and long before the
 * client's own (the statement timeout + 1 s), the only bound a statement sent alone through a
 * pooler had before.
 */
const STATEMENT_MS = 3000;
/** Scenario 97: the terminal waits at TERMINAL_ACKNOWLEDGED until the card control acts. */
const WAITS_FOR_CARD = 10097;

async function poll<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Contract "Every wait bounded", behind a pooler: with the API's pooled connections through a
 * real PgBouncer (in transaction mode, as platform teams run it, and in session mode), a charge's
 * decision write (one statement, sent without BEGIN) that meets its row locked by another session
 * is answered 504 INT-003 (the terminal answered an outcome that could not be stored) when the
 * server's lock timeout ends the wait, and no server session is left waiting on the lock; once
 * the lock is released, a retry with the same id answers the one outcome, stored once. A changed
 * timeout is taken at the next start; the pooler's sessions opened before keep theirs, which the
 * start tells rather than refuses (a rolling deploy goes on).
 */
describe.each<PoolMode>(['transaction', 'session'])(
  'A one-statement write behind PgBouncer in %s mode waiting on a row lock [postgres]',
  (mode) => {
    let bouncer: PgBouncer;
    let stack: Stack;
    /** Holds the row's lock, from a session of its own on the server (not through the pooler). */
    let holder: Client;
    let holderPid: number;
    /** Watches the server's sessions (pg_stat_activity), outside any transaction: each look is fresh. */
    let observer: Client;
    let url: string;
    let database: string;
    let metricsUrl: string;

    beforeAll(async () => {
      bouncer = await PgBouncer.start(mode);
      stack = await Stack.start({
        store: 'postgres',
        routeDatabase: (app, url) => (app === 'api' ? bouncer.route(url) : url),
        directBesideRouted: true,
        apiEnv: {
          DATABASE_LOCK_TIMEOUT_MS: String(LOCK_MS),
          DATABASE_STATEMENT_TIMEOUT_MS: String(STATEMENT_MS),
          METRICS_PORT: '0',
        },
      });
      metricsUrl = `http://127.0.0.1:${/metrics on port (\d+)/.exec(stack.api.log)?.[1]}`;
      url = await stack.store.url('api');
      database = new URL(url).pathname.slice(1);
      holder = new Client({ connectionString: url });
      observer = new Client({ connectionString: url });
      await holder.connect();
      await observer.connect();
      holderPid = (await holder.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid;
    });

    afterAll(async () => {
      await holder?.end().catch(() => undefined);
      await observer?.end().catch(() => undefined);
      await stack?.stop();
      await bouncer?.stop();
    });

    /**
     * Statements of the API's database waiting on a lock for longer than `ms`; `alone`: only the
     * writes of one statement (the PostgreSQL adapter's data-modifying WITH, sent without BEGIN).
     */
    async function waitingLongerThan(ms: number, alone = false): Promise<string[]> {
      const { rows } = await observer.query<{ query: string }>(
        `SELECT query FROM pg_stat_activity
          WHERE datname = $1 AND pid NOT IN ($2, pg_backend_pid()) AND wait_event_type = 'Lock'
            AND clock_timestamp() - query_start > make_interval(secs => $3::float8 / 1000)
            AND (NOT $4 OR query LIKE 'WITH %')`,
        [database, holderPid, ms, alone],
      );
      return rows.map((row) => row.query);
    }

    it("makes the role's timeouts those of every pooled session", async () => {
      const pooled = new Client({ connectionString: bouncer.route(url) });
      await pooled.connect();
      try {
        const { rows } = await pooled.query<{ lock: string; statement: string }>(
          "SELECT current_setting('lock_timeout') AS lock, current_setting('statement_timeout') AS statement",
        );
        expect(rows).toEqual([{ lock: '1s', statement: '3s' }]);
      } finally {
        await pooled.end();
      }
    });

    it('answers 504 INT-003 at the lock timeout, leaves no session waiting, and a retry converges', async () => {
      const client = stack.client();
      const [serial] = await createInstantTerminals(client, 1);
      const id = randomUUID();
      const send = () =>
        client.post<Json>(`/terminal/v1/${serial}/sync/charge`, {
          amount: amountOf(WAITS_FOR_CARD),
          client_transaction_id: id,
        });
      const answer = send();

      // Recorded, and its acknowledgement stored (from the uplink): the terminal waits for the card.
      await poll('the acknowledgement stored', async () => {
        const { rows } = await observer.query<{ n: string }>(
          'SELECT event_count AS n FROM transactions WHERE client_transaction_id = $1',
          [id],
        );
        return Number(rows[0]?.n ?? 0) >= 1 ? true : undefined;
      });
      await holder.query('BEGIN');
      await holder.query('SELECT id FROM transactions WHERE client_transaction_id = $1 FOR UPDATE', [id]);
      const timeouts = async (kind: 'lock' | 'statement'): Promise<number> =>
        (await scrape(metricsUrl)).value('tps_database_timeouts_total', { kind });
      const before = { lock: await timeouts('lock'), statement: await timeouts('statement') };
      let answered: { status: number; code: string; ms: number };
      let waitedAlone: string[];
      let leftWaiting: string[];
      try {
        const presented = await client.post<Json>(`/sandbox/terminals/${serial}/card`, {
          action: 'present',
          reading_type: 'CHIP',
        });
        expect(presented.status).toBe(200);
        const started = Date.now();
        // What this shows: the terminal's events, written in one statement, wait on the lock.
        waitedAlone = await poll(
          'a statement sent alone waiting on the lock',
          async () => {
            const alone = await waitingLongerThan(0, true);
            return alone.length > 0 ? alone : undefined;
          },
          10_000,
        );
        const response = await answer;
        answered = { status: response.status, code: String(response.body.code), ms: Date.now() - started };
        // Each wait ended at the lock's bound: none has lasted longer since.
        await new Promise((resolve) => setTimeout(resolve, LOCK_MS + 500));
        leftWaiting = await waitingLongerThan(LOCK_MS + 500);
      } finally {
        await holder.query('ROLLBACK');
      }
      expect(waitedAlone.length).toBeGreaterThan(0);
      expect(answered).toEqual({ status: 504, code: 'INT-003', ms: expect.any(Number) });
      // The server's lock timeout ended the wait, not the statement's, nor the client's own bound.
      expect(answered.ms).toBeLessThan(STATEMENT_MS);
      expect(await timeouts('lock')).toBeGreaterThan(before.lock);
      expect(await timeouts('statement')).toBe(before.statement);
      expect(leftWaiting).toEqual([]);

      // The lock released, the same id converges: the terminal offers its events again.
      const outcome = await poll(
        'the retry answered 200',
        async () => {
          const response = await send();
          if (response.status === 200) return response.body;
          expect([503, 504]).toContain(response.status);
          return undefined;
        },
        60_000,
      );
      expect(outcome.approved).toBe(true);
      expect((await everyOnline(client)).get(id)?.status).toBe('APPROVAL');
      const stored = await stack.store.rows<{ n: number }>(
        'api',
        'SELECT COUNT(*) AS n FROM transactions WHERE client_transaction_id = ?',
        [id],
      );
      expect(stored.map((row) => Number(row.n))).toEqual([1]);
    }, 120_000);

    it('takes a changed lock timeout at the next start, telling of the pooled sessions opened before', async () => {
      await stack.restartApi({ DATABASE_LOCK_TIMEOUT_MS: String(2 * LOCK_MS) });
      // The pooler hands the new process the server sessions it already had: not refused, told.
      expect(stack.api.log).toMatch(
        /lock_timeout 1000 ms, not [^\n]*DATABASE_LOCK_TIMEOUT_MS 2000[^\n]*opened before/,
      );
      const fresh = new Client({ connectionString: url });
      await fresh.connect();
      try {
        expect(
          (await fresh.query<{ lock: string }>("SELECT current_setting('lock_timeout') AS lock")).rows,
        ).toEqual([{ lock: '2s' }]);
      } finally {
        await fresh.end();
      }
      const health = await fetch(`${stack.apiUrl}/health`);
      expect(health.status).toBe(200);
      expect(((await health.json()) as Json).database.state).toBe('up');
    }, 60_000);
  },
);
