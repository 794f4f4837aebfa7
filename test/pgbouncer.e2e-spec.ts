import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { createInstantTerminals, PgBouncer, Stack, TEST_POSTGRES_URL, type PoolMode } from '@tps/testing';
import { amountOf, everyOnline, lostAnswers, type AnsweredCharge, type Json } from './payment-helpers';

const TERMINALS = 8;
const PER_TERMINAL = 10;

/**
 * Contract "The database a platform team runs": both apps behind a real PgBouncer, their pooled
 * connections through it and a direct URL beside it for the migrations and LISTEN, serve signed
 * charges with every one answered 200, stored once, lost by none, in both pool modes.
 */
describe.each<PoolMode>(['transaction', 'session'])('PgBouncer in %s mode [postgres]', (mode) => {
  let bouncer: PgBouncer;
  let stack: Stack;

  beforeAll(async () => {
    bouncer = await PgBouncer.start(mode);
    stack = await Stack.start({
      store: 'postgres',
      routeDatabase: (_app, url) => bouncer.route(url),
      directBesideRouted: true,
    });
  });

  afterAll(async () => {
    await stack?.stop();
    await bouncer?.stop();
  });

  it('answers every signed charge 200, each stored once', async () => {
    const client = stack.client();
    const serials = await createInstantTerminals(client, TERMINALS);
    const answered = new Map<string, AnsweredCharge>();
    const refused: string[] = [];
    await Promise.all(
      serials.map(async (serial, t) => {
        for (let n = 0; n < PER_TERMINAL; n++) {
          const id = randomUUID();
          const response = await client.post<Json>(`/terminal/v1/${serial}/sync/charge`, {
            amount: amountOf(10000 + t * 100 + n),
            client_transaction_id: id,
          });
          if (response.status !== 200) {
            refused.push(`${response.status} ${JSON.stringify(response.body).slice(0, 200)}`);
            continue;
          }
          const raw = response.body.rawResponse as Json;
          answered.set(id, {
            approved: response.body.approved === true,
            reference: (raw.transaction_reference as string | undefined) ?? null,
          });
        }
      }),
    );
    expect(refused).toEqual([]);
    expect(answered.size).toBe(TERMINALS * PER_TERMINAL);
    expect(lostAnswers(answered, await everyOnline(client))).toEqual([]);
    const doubled = await stack.store.rows<{ id: string }>(
      'api',
      'SELECT client_transaction_id AS id FROM transactions GROUP BY merchant_id, client_transaction_id HAVING COUNT(*) > 1',
    );
    expect(doubled).toEqual([]);
    const onTerminals = await stack.store.rows<{ key: string }>(
      'terminal',
      "SELECT key FROM terminal_transactions WHERE key LIKE 'demo-merchant:%'",
    );
    const ours = onTerminals.filter((row) => answered.has(row.key.slice('demo-merchant:'.length)));
    expect(ours).toHaveLength(answered.size);
  }, 180_000);
});

/**
 * Without a direct URL, a pooler in transaction mode would take the migrations' advisory lock and
 * the LISTEN of the service's messages into server sessions that other clients then get: the API
 * refuses to start, and says why.
 */
describe('PgBouncer in transaction mode with no direct URL [postgres]', () => {
  let bouncer: PgBouncer;

  beforeAll(async () => {
    bouncer = await PgBouncer.start('transaction');
  });

  afterAll(async () => {
    await bouncer?.stop();
  });

  it('is refused at start with the reason', async () => {
    await expect(
      Stack.start({
        store: 'postgres',
        routeDatabase: (_app, url) => bouncer.route(url),
        withoutSimulator: true,
      }),
    ).rejects.toThrow(/transaction mode[\s\S]*DATABASE_DIRECT_URL/);
  }, 60_000);
});

/** Runs `sql` on the test server's own database (roles are the server's, not a database's). */
async function onServer(sql: string): Promise<void> {
  const client = new Client({ connectionString: TEST_POSTGRES_URL });
  await client.connect();
  await client.query(sql).finally(() => client.end());
}

/**
 * Contract "Every wait bounded": a pooler whose server connections log in as another role than
 * the direct URL's gets none of the timeouts the start sets as the direct role's defaults. With
 * that role's left unset, a statement sent alone would wait on a lock without a bound: the API
 * refuses to start, and says what to run for that role.
 */
describe('PgBouncer connecting as another role, whose timeouts are unset [postgres]', () => {
  const role = `tps_pool_${randomUUID().slice(0, 8)}`;
  let bouncer: PgBouncer;

  beforeAll(async () => {
    await onServer(`CREATE ROLE ${role} LOGIN`);
    bouncer = await PgBouncer.start('transaction', { host: '127.0.0.1', port: 5432, user: role });
  });

  afterAll(async () => {
    await bouncer?.stop();
    await onServer(`DROP ROLE IF EXISTS ${role}`);
  });

  // The app's log is JSON: its quotes come escaped.
  const quoted = (name: string): string => `\\\\?"${name}\\\\?"`;

  it('is refused at start, with the statements to run', async () => {
    await expect(
      Stack.start({
        store: 'postgres',
        routeDatabase: (_app, url) => bouncer.route(url),
        directBesideRouted: true,
        withoutSimulator: true,
      }),
    ).rejects.toThrow(
      new RegExp(
        `lock_timeout 0 ms[\\s\\S]*ALTER ROLE ${quoted(role)} IN DATABASE ${quoted('\\w+')} SET statement_timeout = 10000; ` +
          `ALTER ROLE ${quoted(role)} IN DATABASE ${quoted('\\w+')} SET lock_timeout = 5000`,
      ),
    );
  }, 60_000);
});
