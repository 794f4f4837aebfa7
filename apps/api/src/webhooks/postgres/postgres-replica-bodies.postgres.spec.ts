import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { API_MIGRATIONS, SecretKeyring, dataSourceOptions, installSecretKeyring } from '@tps/database';
import { TestStore } from '@tps/testing';
import { API_ENTITIES } from '../../api-entities';
import { PostgresReplicaBodies } from './postgres-replica-bodies';

const MINUTE_MS = 60_000;

describe('PostgresReplicaBodies on PostgreSQL', () => {
  let dir: string;
  let store: TestStore;
  let pool: Pool;
  let dataSource: DataSource;
  const self = { id: 'self', epoch: 3 };
  let bodies: PostgresReplicaBodies;

  /** A replica's row, heard from `agoMs` ago, saying it reads bodies from events under `bodiesEpoch`. */
  const replica = (id: string, epoch: number, agoMs: number, bodiesEpoch: number | null) =>
    pool.query(
      `INSERT INTO api_replicas (id, epoch, started_at, heartbeat_at, event_bodies_epoch)
       VALUES ($1, $2, now(), now() - $3 * interval '1 millisecond', $4)`,
      [id, epoch, agoMs, bodiesEpoch],
    );

  beforeAll(async () => {
    installSecretKeyring(new SecretKeyring([{ id: 'unit', key: randomBytes(32) }]));
    dir = mkdtempSync(join(tmpdir(), 'tps-replica-bodies-'));
    store = new TestStore('postgres', dir);
    const url = await store.url('api');
    dataSource = await new DataSource(
      dataSourceOptions({ url, entities: API_ENTITIES, migrations: API_MIGRATIONS, poolSize: 1 }),
    ).initialize();
    pool = new Pool({ connectionString: url, max: 1 });
    // pool.end() resolves before its connections have closed; the drop's FORCE then ends one, and
    // the pool would raise that as an error nobody hears (a failed suite after its tests passed).
    pool.on('error', () => undefined);
    bodies = new PostgresReplicaBodies(dataSource, self);
  });

  afterAll(async () => {
    await pool.end();
    await dataSource.destroy();
    await store.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  beforeEach(async () => {
    await pool.query('DELETE FROM api_replicas');
    await pool.query('DELETE FROM webhook_deliveries');
    await pool.query('DELETE FROM transaction_events');
  });

  it('tells a live replica that has not said it reads bodies from events, under its epoch, until it says so', async () => {
    await replica(self.id, self.epoch, 0, null);
    await replica('gone', 1, 10 * MINUTE_MS, null);
    await replica('restarted', 5, 0, 4);
    expect(await bodies.olderAlive(MINUTE_MS)).toBe(true);
    await bodies.advertise();
    // Its own row says so now; one that said so under an earlier epoch has restarted since.
    expect(await bodies.olderAlive(MINUTE_MS)).toBe(true);
    await pool.query("UPDATE api_replicas SET event_bodies_epoch = epoch WHERE id = 'restarted'");
    expect(await bodies.olderAlive(MINUTE_MS)).toBe(false);
    // One heard from too long ago is not alive.
    expect(await bodies.olderAlive(20 * MINUTE_MS)).toBe(true);
  });

  it("fills in the pending deliveries stored without a payload with their event's envelope, and counts them", async () => {
    const envelope = JSON.stringify({ event_id: 'e1', status: 'APPROVED' });
    await pool.query(
      `INSERT INTO transaction_events (event_id, transaction_id, sequence, status, previous_status, occurred_at, envelope)
       VALUES ('e1', 't1', 1, 'APPROVED', 'APPROVAL_REQUESTED', '2026-01-01T00:00:00.000Z', $1)`,
      [envelope],
    );
    // Each at its own position in the transaction's order.
    const delivery = (id: string, position: number, payload: string, state: string) =>
      pool.query(
        `INSERT INTO webhook_deliveries (id, merchant_id, transaction_id, position, client_transaction_id,
           event_id, event_status, url, payload, state, attempt_count, next_attempt_at, created_at)
         VALUES ($1, 'm1', 't1', $4, 'c1', 'e1', 'APPROVED', 'http://127.0.0.1/hook', $2, $3, 0, NULL, '2026-01-01T00:00:00.000Z')`,
        [id, payload, state, position],
      );
    await delivery('empty', 1, '', 'pending');
    await delivery('written', 2, 'as written', 'pending');
    await delivery('done', 3, '', 'delivered');
    expect(await bodies.fillPending()).toBe(1);
    const { rows } = await pool.query<{ id: string; payload: string }>(
      'SELECT id, payload FROM webhook_deliveries ORDER BY id',
    );
    expect(rows).toEqual([
      { id: 'done', payload: '' },
      { id: 'empty', payload: envelope },
      { id: 'written', payload: 'as written' },
    ]);
  });
});
