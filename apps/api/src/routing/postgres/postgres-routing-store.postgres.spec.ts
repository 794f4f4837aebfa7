import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource, type DataSourceOptions, type Logger } from 'typeorm';
import {
  API_MIGRATIONS,
  SecretKeyring,
  dataSourceOptions,
  installSecretKeyring,
  closeDataSource,
  openDataSource,
  sqlOf,
} from '@tps/database';
import { PostgresMessagePort, postgresNotifyConnector, type NotifyConnector } from '@tps/messaging';
import { TestStore } from '@tps/testing';
import { API_ENTITIES } from '../../api-entities';
import { CROSSING_TOPICS, type ApiTopics } from '../../messages/api-messages';
import { PostgresReplicaRows } from './postgres-replica-rows';
import { PostgresRoutingStore } from './postgres-routing-store';
import { openRoutingDataSource } from './routing-data-source';
import { REPLY_IN_WORD_BYTES } from '../routing-words';
import { ThisReplica } from '../this-replica';

const SERIAL = 'SIM0000002';

/** A data source of `options` that counts the statements sent through it once open (its first words). */
async function counting(
  options: DataSourceOptions,
): Promise<{ dataSource: DataSource; statements: string[] }> {
  const statements: string[] = [];
  const quiet = (): void => undefined;
  const logger: Logger = {
    logQuery: (query) => {
      // sqlOf hands node-postgres a named statement as `{ name, text }`.
      const text = typeof query === 'string' ? query : (query as { text: string }).text;
      statements.push(text.trim().split(/\s+/)[0]);
    },
    logQueryError: quiet,
    logQuerySlow: quiet,
    logSchemaBuild: quiet,
    logMigration: quiet,
    log: quiet,
  };
  const dataSource = await openDataSource({ ...options, logger });
  statements.length = 0;
  return { dataSource, statements };
}

/** A replica's message port, on the spec's database; `notified` counts the NOTIFY statements of its own. */
async function portOn(url: string): Promise<{ port: PostgresMessagePort<ApiTopics>; notified: string[][] }> {
  const real = postgresNotifyConnector(url, 'tps-routing-spec', { connectionTimeoutMillis: 3000 });
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
  let app: DataSource;
  let routing: DataSource;
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
    app = await openDataSource(
      dataSourceOptions({ url, entities: API_ENTITIES, migrations: API_MIGRATIONS, poolSize: 1 }),
    );
    routing = await openRoutingDataSource(app, () => undefined);
    asker = new ThisReplica(new PostgresReplicaRows(routing), 'a', 60_000, () => undefined);
    holder = new ThisReplica(new PostgresReplicaRows(routing), 'b', 60_000, () => undefined);
    await asker.join();
    await holder.join();
    asking = await portOn(url);
    holding = await portOn(url);
    holding.port.subscribe('route.handed', (word) => handedWords.push(word), 'cluster');
    asking.port.subscribe('route.answered', (word) => answeredWords.push(word), 'cluster');
    await sqlOf(routing.manager).run(
      'INSERT INTO terminal_uplinks (serial_number, replica_id, replica_epoch, linked_at) VALUES (?, ?, ?, now())',
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
    await closeDataSource(routing);
    await closeDataSource(app);
    await testStore.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  const left = async (): Promise<number> =>
    Number(
      (await sqlOf(routing.manager).all<{ n: string }>('SELECT COUNT(*) AS n FROM routed_requests', []))[0].n,
    );

  const wordStart = (port: PostgresMessagePort<ApiTopics>) => (topic: 'route.handed' | 'route.answered') =>
    port.wordStart(topic);

  it('a routed request is one statement to hand (its word to the holder in it), one to take and one to answer (its word with the reply in it); the rows of replies taken from their word go in one', async () => {
    const askingSource = await counting(routing.options);
    const holdingSource = await counting(routing.options);
    const askerStore = new PostgresRoutingStore(askingSource.dataSource, asker, wordStart(asking.port));
    const holderStore = new PostgresRoutingStore(holdingSource.dataSource, holder, wordStart(holding.port));
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
    await closeDataSource(askingSource.dataSource);
    await closeDataSource(holdingSource.dataSource);
    expect(askingSource.statements).toEqual(['WITH', 'WITH', 'DELETE']);
    expect(holdingSource.statements).toEqual(['UPDATE', 'WITH', 'WITH']);
    // No NOTIFY statement of the ports' own: the words went with the writes.
    expect([...asking.notified, ...holding.notified]).toEqual([]);
    expect(await left()).toBe(0);
  });

  it('tells a large reply without it, once stored: its caller reads it', async () => {
    const askerStore = new PostgresRoutingStore(routing, asker, wordStart(asking.port));
    const holderStore = new PostgresRoutingStore(routing, holder, wordStart(holding.port));
    const id = randomUUID();
    await askerStore.hand(id, 'uplink', SERIAL, SERIAL, { type: 'operation' }, 5000);
    await holderStore.claim(id);
    const large = { ok: 'x'.repeat(REPLY_IN_WORD_BYTES) };
    expect(await holderStore.answer(id, large)).toBe(true);
    expect(await hear(answeredWords, 1)).toEqual([{ id }]);
    expect(await askerStore.takeReply(id)).toEqual(large);
  });

  it('an answer whose caller stopped waiting stores nothing, tells nothing, and says so', async () => {
    const store = new PostgresRoutingStore(routing, holder, wordStart(holding.port));
    const askerStore = new PostgresRoutingStore(routing, asker, wordStart(asking.port));
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

  /**
   * Runs each statement of the store once, on a data source of one connection (through a pooler
   * if `directUrl` is given beside it); resolves the routing statements the server keeps prepared.
   */
  async function preparedAfterEachStatement(directUrl?: string): Promise<string[]> {
    const url = await testStore.url('api');
    const one = await openDataSource({
      ...dataSourceOptions({ url, directUrl, entities: [], migrations: [], poolSize: 1 }),
      migrationsRun: false,
    });
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
      const rows = await one.query<Array<{ statement: string }>>(
        'SELECT statement FROM pg_prepared_statements',
      );
      return rows.map((row) => row.statement).filter((statement) => statement.includes('routed_requests'));
    } finally {
      await closeDataSource(one);
    }
  }

  it('prepares each of its statements once per connection: the server neither parses nor plans them again', async () => {
    // hand (an uplink's), claim one, claim all, answer, take a reply, abandon, forget.
    expect(new Set(await preparedAfterEachStatement()).size).toBe(7);
  });

  it('behind a pooler (a direct URL given beside it) keeps no statement on the server session', async () => {
    expect(await preparedAfterEachStatement(await testStore.url('api'))).toEqual([]);
  });

  it("opens a pool of routing's own, named for it, beside the app's", async () => {
    await sqlOf(routing.manager).all('SELECT 1', []);
    const rows = await app.query<Array<{ application_name: string }>>(
      "SELECT application_name FROM pg_stat_activity WHERE application_name = 'tps-api-routing'",
    );
    expect(rows.length).toBeGreaterThan(0);
    expect(routing.options).toMatchObject({ poolSize: 4, migrationsRun: false });
  });

  it('keeps the requests in an unlogged table: their commits wait for no flush of the write-ahead log', async () => {
    const rows = await sqlOf(routing.manager).all<{ relpersistence: string }>(
      "SELECT relpersistence FROM pg_class WHERE relname = 'routed_requests'",
      [],
    );
    expect(rows).toEqual([{ relpersistence: 'u' }]);
  });
});
