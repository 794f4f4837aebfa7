import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { AppProcess, LINK_SECRET, poll, SIMULATOR_ENTRY, Stack } from '@tps/testing';
import { amountOf, ensureDaytime, type Json } from './payment-helpers';
import { cutOff, restore } from './storage-faults';

/** The replica's process id: replica ids end with it. */
const pidOf = (replicaId: string): string => replicaId.split('-').at(-1) ?? '';

/**
 * Several replicas on one PostgreSQL database (contract, "Several replicas on one PostgreSQL
 * database"): links that close and open while the replicas' database is away are stored as they
 * are once it is back, and requests are routed by them. The simulator links to the first replica;
 * while the database is cut off it dies and another one links to the second replica.
 */
describe('link holders written again after a database outage [postgres]', () => {
  let stack: Stack;
  let database: string;
  let second: AppProcess | undefined;

  beforeAll(async () => {
    stack = await Stack.start({ store: 'postgres', replicas: 2 });
    database = new URL(await stack.store.url('api')).pathname.slice(1);
    await ensureDaytime(stack.client());
  }, 60_000);

  afterAll(async () => {
    if (database !== undefined) await restore(database).catch(() => undefined);
    await second?.stop();
    await stack?.stop();
  });

  it('stores the links as they are, and routes by them', async () => {
    const [first, other] = stack.replicas;
    await cutOff(database);
    await stack.simulator?.kill();
    const starting = AppProcess.start(
      'terminal-simulator-2',
      SIMULATOR_ENTRY,
      {
        PORT: '0',
        HOST: '127.0.0.1',
        API_URL: other.url,
        DATABASE_URL: await stack.store.url('terminal-2'),
        LINK_SECRET,
        RECONNECT_MIN_MS: '20',
      },
      { timeoutMs: 60_000 },
    );
    await poll(
      'the second simulator to link to the second replica',
      async () => (other.text.includes('linked to instance') ? true : undefined),
      60_000,
    );
    // Each replica tries, and fails, to write what changed.
    await sleep(2_000);
    await restore(database);
    second = await starting;

    // What the rows said last, should they never say it: the replicas' ids hold their pids.
    let seen: unknown;
    await poll(
      'the share stored as held by the second replica alone',
      async () => {
        const rows = await stack.store.rows<{ replica_id: string }>(
          'api',
          'SELECT replica_id FROM share_holders',
        );
        seen = rows;
        return rows.length === 1 && pidOf(rows[0].replica_id) === String(other.pid) ? true : undefined;
      },
      15_000,
    ).catch((error: unknown) => {
      throw new Error(
        `${String(error)}; rows last seen ${JSON.stringify(seen)}, pids ${first.pid} ${other.pid}`,
      );
    });
    await poll(
      'no uplink stored as held by the first replica',
      async () => {
        const rows = await stack.store.rows<{ replica_id: string }>(
          'api',
          'SELECT replica_id FROM terminal_uplinks',
        );
        return rows.every((row) => pidOf(row.replica_id) !== String(first.pid)) ? true : undefined;
      },
      15_000,
    );
    await stack.waitReady(0, 20_000);
    // Local form rides the share's control link, which the second replica holds now.
    const charge = await stack.clientOf(0).post<Json>('/terminal/v1/sync/charge', {
      amount: amountOf(10_000),
      client_transaction_id: randomUUID(),
    });
    expect({ status: charge.status, approved: charge.body.approved }).toEqual({
      status: 200,
      approved: true,
    });
  }, 90_000);
});

/**
 * Across replicas the last write of a link's holder wins, so another replica's write for the same
 * link, held up by a slow database, can leave a row wrong or gone though no write failed (contract,
 * "Who holds which link"): each replica stores what it holds again every LINK_HOLDERS_REWRITE_MS.
 */
describe('link holders written again though no write failed [postgres]', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await Stack.start({
      store: 'postgres',
      replicas: 2,
      apiEnv: { LINK_HOLDERS_REWRITE_MS: '1000' },
    });
    await ensureDaytime(stack.client());
  }, 60_000);

  afterAll(async () => {
    await stack?.stop();
  });

  it('stores again the holders whose rows went, and routes by them', async () => {
    /** Each row as "<link> <replica>", sorted. */
    const lines = async (sql: string): Promise<string[]> =>
      (await stack.store.rows<{ row: string }>('api', sql)).map((row) => row.row).sort();
    const holders = async (): Promise<{ shares: string[]; uplinks: string[] }> => ({
      shares: await lines(`SELECT share || ' ' || replica_id AS row FROM share_holders`),
      uplinks: await lines(`SELECT serial_number || ' ' || replica_id AS row FROM terminal_uplinks`),
    });
    await stack.waitReady(1, 20_000);
    const before = await holders();
    expect(before.shares).toHaveLength(1);
    expect(before.uplinks.length).toBeGreaterThan(0);

    // What a held-up write of another replica's could leave: the rows gone, every link still open.
    await stack.store.rows('api', 'DELETE FROM share_holders');
    await stack.store.rows('api', 'DELETE FROM terminal_uplinks');
    await poll(
      'the holders stored again as they were',
      async () => {
        const now = await holders();
        return JSON.stringify(now) === JSON.stringify(before) ? true : undefined;
      },
      10_000,
    );
    // Each replica serves both forms, the link's holder or not.
    for (const n of [0, 1]) {
      const charge = await stack.clientOf(n).post<Json>('/terminal/v1/sync/charge', {
        amount: amountOf(10_000),
        client_transaction_id: randomUUID(),
      });
      expect({ replica: n, status: charge.status, approved: charge.body.approved }).toEqual({
        replica: n,
        status: 200,
        approved: true,
      });
    }
  }, 60_000);
});
