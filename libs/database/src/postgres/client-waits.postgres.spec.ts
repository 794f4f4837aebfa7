import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Pool } from 'pg';
import { TestStore } from '@tps/testing';
import { clientWaits } from './client-waits';

const WAITS = { acquireTimeoutMs: 500, statementTimeoutMs: 1500, lockTimeoutMs: 300 };

/**
 * Contract "Every wait bounded", for node-postgres' pool under a data source (its `extra`): on a direct
 * connection the session starts with the statement and lock timeouts, and a wait for a free
 * connection ends at the acquire timeout.
 */
describe('clientWaits on a direct PostgreSQL connection', () => {
  let dir: string;
  let store: TestStore;
  let url: string;
  let holder: Client;
  let pool: Pool;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tps-client-waits-'));
    store = new TestStore('postgres', dir);
    url = await store.url('waits');
    holder = new Client({ connectionString: url });
    await holder.connect();
    await holder.query('CREATE TABLE held (id int PRIMARY KEY)');
    await holder.query('INSERT INTO held VALUES (1)');
    pool = new Pool({ connectionString: url, max: 1, ...clientWaits(WAITS, false) });
    // pool.end() resolves before its connections have closed; the drop's FORCE then ends one, and
    // the pool would raise that as an error nobody hears (a failed suite after its tests passed).
    pool.on('error', () => undefined);
  });

  afterAll(async () => {
    await pool?.end();
    await holder?.end();
    await store?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('starts each session with the timeouts', async () => {
    const { rows } = await pool.query<{ statement: string; lock: string }>(
      "SELECT current_setting('statement_timeout') AS statement, current_setting('lock_timeout') AS lock",
    );
    expect(rows).toEqual([{ statement: '1500ms', lock: '300ms' }]);
  });

  it("ends a wait on another session's row lock at the lock timeout", async () => {
    await holder.query('BEGIN');
    await holder.query('SELECT id FROM held FOR UPDATE');
    try {
      await expect(pool.query('UPDATE held SET id = 2 WHERE id = 1')).rejects.toMatchObject({
        code: '55P03',
      });
    } finally {
      await holder.query('ROLLBACK');
    }
  });

  it('ends a wait for a free connection at the acquire timeout', async () => {
    const busy = await pool.connect();
    try {
      await expect(pool.query('SELECT 1')).rejects.toThrow(/timeout/i);
    } finally {
      busy.release();
    }
  });

  it('leaves the timeouts to the role and each transaction behind a pooler, which refuses them at start', () => {
    expect(clientWaits(WAITS, true)).toEqual({
      connectionTimeoutMillis: 500,
      query_timeout: 2500,
      keepAlive: true,
    });
  });
});
