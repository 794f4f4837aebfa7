import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'pg';
import { DataSource } from 'typeorm';
import {
  API_MIGRATIONS,
  SecretKeyring,
  dataSourceOptions,
  installSecretKeyring,
  closeDataSource,
} from '@tps/database';
import { PostgresMessagePort, postgresNotifyConnector, type NotifyConnector } from '@tps/messaging';
import { TestStore } from '@tps/testing';
import { API_ENTITIES } from '../../api-entities';
import { CROSSING_TOPICS, type ApiTopics } from '../../messages/api-messages';
import { PostgresReplicaRows } from './postgres-replica-rows';
import { PostgresRoutingStore } from './postgres-routing-store';
import { REPLY_IN_WORD_BYTES } from '../routing-words';
import { ThisReplica } from '../this-replica';

const SERIAL = 'SIM0000002';

/** A pool that counts the statements sent through it. */
function counting(pool: Pool): { pool: Pool; statements: string[] } {
  const statements: string[] = [];
  const counted = {
    query: (sql: string | { text: string; values?: unknown[] }, params?: unknown[]) => {
      statements.push((typeof sql === 'string' ? sql : sql.text).trim().split(/\s+/)[0]);
      return typeof sql === 'string' ? pool.query(sql, params) : pool.query(sql);
    },
  };
  return { pool: counted as unknown as Pool, statements };
}

/** A replica's message port, on the spec's database; `notified` counts the NOTIFY statements of its own. */
async function portOn(url: string): Promise<{ port: PostgresMessagePort<ApiTopics>; notified: string[][] }> {
  const real = postgresNotifyConnector(url, 'tps-routing-spec');
  const notified: string[][] = [];
  const connector: NotifyConnector = {
    listen: (onPayload, onLost) => real.listen(onPayload, onLost),
    notify: (payloads) => (notified.push(payloads), real.notify(payloads)),
    close: () => real.close(),
  };
  const port = new PostgresMessagePort<ApiTopics>(connector, {
    crossing: CROSSING_TOPICS,
    onError: () => undefined,
  });
  await port.start();
  return { port, notified };
}

/** Waits until `heard` holds `count` words, or a second passed. */
async function hear<T>(heard: T[], count: number): Promise<T[]> {
  for (let waited = 0; heard.length < count && waited < 1000; waited += 10) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return heard;
}

describe('PostgresRoutingStore on PostgreSQL', () => {
  let dir: string;
  let testStore: TestStore;
  let pool: Pool;
  let asker: ThisReplica;
  let holder: ThisReplica;
  let asking: Awaited<ReturnType<typeof portOn>>;
  let holding: Awaited<ReturnType<typeof portOn>>;
  /** What each replica's port heard, by topic. */
  const handedWords: Array<ApiTopics['route.handed']> = [];
  const answeredWords: Array<ApiTopics['route.answered']> = [];

  beforeAll(async () => {
    installSecretKeyring(new SecretKeyring([{ id: 'unit', key: randomBytes(32) }]));
    dir = mkdtempSync(join(tmpdir(), 'tps-routing-pg-'));
    testStore = new TestStore('postgres', dir);
    const url = await testStore.url('api');
    const migrated = new DataSource(
      dataSourceOptions({ url, entities: API_ENTITIES, migrations: API_MIGRATIONS, poolSize: 1 }),
    );
    await migrated.initialize();
    await closeDataSource(migrated);
    pool = new Pool({ connectionString: url, max: 2 });
    asker = new ThisReplica(new PostgresReplicaRows(pool), 'a', 60_000, () => undefined);
    holder = new ThisReplica(new PostgresReplicaRows(pool), 'b', 60_000, () => undefined);
    await asker.join();
    await holder.join();
    asking = await portOn(url);
    holding = await portOn(url);
    holding.port.subscribe('route.handed', (word) => handedWords.push(word), 'cluster');
    asking.port.subscribe('route.answered', (word) => answeredWords.push(word), 'cluster');
    await pool.query(
      'INSERT INTO terminal_uplinks (serial_number, replica_id, replica_epoch, linked_at) VALUES ($1, $2, $3, now())',
      [SERIAL, holder.id, holder.epoch],
    );
  });

  beforeEach(() => {
    handedWords.length = 0;
    answeredWords.length = 0;
  });

  afterAll(async () => {
    await asking.port.stop();
    await holding.port.stop();
    await asker.leave();
    await holder.leave();
    await pool.end();
    await testStore.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  const left = async (): Promise<number> =>
    Number((await pool.query<{ n: string }>('SELECT COUNT(*) AS n FROM routed_requests')).rows[0].n);

  const wordStart = (port: PostgresMessagePort<ApiTopics>) => (topic: 'route.handed' | 'route.answered') =>
    port.wordStart(topic);

  it('a routed request is one statement to hand (its word to the holder in it), one to take and one to answer (its word with the reply in it); the rows of replies taken from their word go in one', async () => {
    const askingPool = counting(pool);
    const holdingPool = counting(pool);
    const askerStore = new PostgresRoutingStore(askingPool.pool, asker, wordStart(asking.port));
    const holderStore = new PostgresRoutingStore(holdingPool.pool, holder, wordStart(holding.port));
    const ids = [randomUUID(), randomUUID()];
    for (const id of ids) {
      expect(await askerStore.hand(id, 'uplink', SERIAL, SERIAL, { type: 'operation' }, 5000)).toBe('b');
    }
    expect(await hear(handedWords, 2)).toEqual(ids.map((id) => ({ replica: 'b', id })));
    const taken = await holderStore.claim(undefined);
    expect(taken.map((request) => request.id).sort()).toEqual([...ids].sort());
    for (const [n, id] of ids.entries())
      expect(await holderStore.answer(id, { ok: { events: [n] } })).toBe(true);
    expect(await hear(answeredWords, 2)).toEqual(
      ids.map((id, n) => ({ id, reply: { ok: { events: [n] } } })),
    );
    await askerStore.forget(ids);
    expect(askingPool.statements).toEqual(['WITH', 'WITH', 'DELETE']);
    expect(holdingPool.statements).toEqual(['UPDATE', 'WITH', 'WITH']);
    // No NOTIFY statement of the ports' own: the words went with the writes.
    expect([...asking.notified, ...holding.notified]).toEqual([]);
    expect(await left()).toBe(0);
  });

  it('tells a large reply without it, once stored: its caller reads it', async () => {
    const askerStore = new PostgresRoutingStore(pool, asker, wordStart(asking.port));
    const holderStore = new PostgresRoutingStore(pool, holder, wordStart(holding.port));
    const id = randomUUID();
    await askerStore.hand(id, 'uplink', SERIAL, SERIAL, { type: 'operation' }, 5000);
    await holderStore.claim(id);
    const large = { ok: 'x'.repeat(REPLY_IN_WORD_BYTES) };
    expect(await holderStore.answer(id, large)).toBe(true);
    expect(await hear(answeredWords, 1)).toEqual([{ id }]);
    expect(await askerStore.takeReply(id)).toEqual(large);
  });

  it('an answer whose caller stopped waiting stores nothing, tells nothing, and says so', async () => {
    const store = new PostgresRoutingStore(pool, holder, wordStart(holding.port));
    const askerStore = new PostgresRoutingStore(pool, asker, wordStart(asking.port));
    const id = randomUUID();
    await askerStore.hand(id, 'uplink', SERIAL, SERIAL, { type: 'operation' }, 5000);
    expect(await store.claim(id)).toHaveLength(1);
    expect(await askerStore.abandon(id)).toEqual({ state: 'taken' });
    expect(await store.answer(id, { ok: 'late' })).toBe(false);
    expect(await left()).toBe(0);
    // A word it sent would have come by now: the handed one did.
    await hear(handedWords, 1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(answeredWords).toEqual([]);
  });

  it('prepares each of its statements once per connection: the server neither parses nor plans them again', async () => {
    const url = await testStore.url('api');
    const one = new Pool({ connectionString: url, max: 1 });
    try {
      const askerStore = new PostgresRoutingStore(one, asker, wordStart(asking.port));
      const holderStore = new PostgresRoutingStore(one, holder, wordStart(holding.port));
      const [first, second] = [randomUUID(), randomUUID()];
      for (const id of [first, second]) await askerStore.hand(id, 'uplink', SERIAL, SERIAL, {}, 5000);
      await holderStore.claim(first);
      await holderStore.claim(undefined);
      await holderStore.answer(first, { ok: 'done' });
      expect(await askerStore.takeReply(first)).toEqual({ ok: 'done' });
      await askerStore.abandon(second);
      await askerStore.forget([first, second]);
      const { rows } = await one.query<{ name: string }>(
        'SELECT name FROM pg_prepared_statements ORDER BY name',
      );
      expect(rows.map((row) => row.name)).toEqual([
        'routing-abandon',
        'routing-answer',
        'routing-claim-all',
        'routing-claim-one',
        'routing-forget',
        'routing-hand-uplink',
        'routing-take-reply',
      ]);
    } finally {
      await one.end();
    }
  });

  it('keeps the requests in an unlogged table: their commits wait for no flush of the write-ahead log', async () => {
    const { rows } = await pool.query<{ relpersistence: string }>(
      "SELECT relpersistence FROM pg_class WHERE relname = 'routed_requests'",
    );
    expect(rows).toEqual([{ relpersistence: 'u' }]);
  });
});
