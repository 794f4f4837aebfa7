import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { API_MIGRATIONS, SecretKeyring, dataSourceOptions, installSecretKeyring } from '@tps/database';
import { TestStore } from '@tps/testing';
import { API_ENTITIES } from '../api-entities';
import { PostgresRoutingStore } from './postgres-routing-store';
import { ThisReplica } from './this-replica';

const SERIAL = 'SIM0000002';

/** A pool that counts the statements sent through it. */
function counting(pool: Pool): { pool: Pool; statements: string[] } {
  const statements: string[] = [];
  const counted = {
    query: (sql: string, params?: unknown[]) => {
      statements.push(sql.trim().split(/\s+/)[0]);
      return pool.query(sql, params);
    },
  };
  return { pool: counted as unknown as Pool, statements };
}

describe('PostgresRoutingStore on PostgreSQL', () => {
  let dir: string;
  let testStore: TestStore;
  let pool: Pool;
  let asker: ThisReplica;
  let holder: ThisReplica;

  beforeAll(async () => {
    installSecretKeyring(new SecretKeyring([{ id: 'unit', key: randomBytes(32) }]));
    dir = mkdtempSync(join(tmpdir(), 'tps-routing-pg-'));
    testStore = new TestStore('postgres', dir);
    const url = await testStore.url('api');
    const migrated = new DataSource(
      dataSourceOptions({ url, entities: API_ENTITIES, migrations: API_MIGRATIONS, poolSize: 1 }),
    );
    await migrated.initialize();
    await migrated.destroy();
    pool = new Pool({ connectionString: url, max: 2 });
    asker = new ThisReplica(pool, 'a', 60_000, () => undefined);
    holder = new ThisReplica(pool, 'b', 60_000, () => undefined);
    await asker.join();
    await holder.join();
    await pool.query(
      'INSERT INTO terminal_uplinks (serial_number, replica_id, replica_epoch, linked_at) VALUES ($1, $2, $3, now())',
      [SERIAL, holder.id, holder.epoch],
    );
  });

  afterAll(async () => {
    await asker.leave();
    await holder.leave();
    await pool.end();
    await testStore.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  const left = async (): Promise<number> =>
    Number((await pool.query<{ n: string }>('SELECT COUNT(*) AS n FROM routed_requests')).rows[0].n);

  it('a routed request is one statement to hand, one to take and one to answer; the rows of replies taken from their word go in one', async () => {
    const asking = counting(pool);
    const holding = counting(pool);
    const askerStore = new PostgresRoutingStore(asking.pool, asker);
    const holderStore = new PostgresRoutingStore(holding.pool, holder);
    const ids = [randomUUID(), randomUUID()];
    for (const id of ids) {
      expect(await askerStore.hand(id, 'uplink', SERIAL, SERIAL, { type: 'operation' }, 5000)).toBe('b');
    }
    const taken = await holderStore.claim(undefined);
    expect(taken.map((request) => request.id).sort()).toEqual([...ids].sort());
    for (const id of ids) expect(await holderStore.answer(id, { ok: { events: [] } })).toBe(true);
    await askerStore.forget(ids);
    expect(asking.statements).toEqual(['INSERT', 'INSERT', 'DELETE']);
    expect(holding.statements).toEqual(['UPDATE', 'UPDATE', 'UPDATE']);
    expect(await left()).toBe(0);
  });

  it('an answer whose caller stopped waiting stores nothing, and says so', async () => {
    const store = new PostgresRoutingStore(pool, holder);
    const askerStore = new PostgresRoutingStore(pool, asker);
    const id = randomUUID();
    await askerStore.hand(id, 'uplink', SERIAL, SERIAL, { type: 'operation' }, 5000);
    expect(await store.claim(id)).toHaveLength(1);
    expect(await askerStore.abandon(id)).toEqual({ state: 'taken' });
    expect(await store.answer(id, { ok: 'late' })).toBe(false);
    expect(await left()).toBe(0);
  });

  it('keeps the requests in an unlogged table: their commits wait for no flush of the write-ahead log', async () => {
    const { rows } = await pool.query<{ relpersistence: string }>(
      "SELECT relpersistence FROM pg_class WHERE relname = 'routed_requests'",
    );
    expect(rows).toEqual([{ relpersistence: 'u' }]);
  });
});
