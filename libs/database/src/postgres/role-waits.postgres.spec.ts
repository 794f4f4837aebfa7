import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { TestStore } from '@tps/testing';
import { pooledWaitsOf, setRoleWaits } from './role-waits';

const WAITS = { acquireTimeoutMs: 3000, statementTimeoutMs: 4321, lockTimeoutMs: 1234 };

/**
 * Contract "Every wait bounded": an ordinary role (no superuser, no CREATEROLE) may make the
 * timeouts its own defaults in its database, and every session it opens there then starts with
 * them; a session opened before keeps what it started with.
 */
describe('setRoleWaits on PostgreSQL, as an ordinary role', () => {
  const role = `tps_ordinary_${randomBytes(4).toString('hex')}`;
  let dir: string;
  let store: TestStore;
  let adminUrl: URL;
  let url: string;

  const asAdmin = async (sql: string, database = adminUrl.pathname): Promise<void> => {
    const client = new Client({ connectionString: new URL(database, adminUrl).toString() });
    await client.connect();
    await client.query(sql).finally(() => client.end());
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tps-role-waits-'));
    store = new TestStore('postgres', dir);
    adminUrl = new URL(await store.url('roles'));
    await asAdmin(`CREATE ROLE ${role} LOGIN NOSUPERUSER NOCREATEROLE`);
    await asAdmin(`GRANT CONNECT ON DATABASE "${adminUrl.pathname.slice(1)}" TO ${role}`);
    const own = new URL(adminUrl);
    own.username = role;
    url = own.toString();
  });

  afterAll(async () => {
    await store?.drop();
    // The role's defaults in the database went with it.
    if (adminUrl !== undefined) await asAdmin(`DROP ROLE IF EXISTS ${role}`, '/postgres');
    rmSync(dir, { recursive: true, force: true });
  });

  const sessionOf = async (): Promise<DataSource> =>
    new DataSource({ type: 'postgres', url, poolSize: 1 }).initialize();

  it('sets them for itself, and a new session has them; one opened before keeps its own', async () => {
    const before = await sessionOf();
    const direct = await sessionOf();
    try {
      const set = await setRoleWaits((sql) => direct.query(sql), WAITS);
      expect(set).toEqual({ role, database: adminUrl.pathname.slice(1) });
      const after = await sessionOf();
      try {
        expect(await pooledWaitsOf(after)).toEqual({
          ...set,
          statementTimeoutMs: WAITS.statementTimeoutMs,
          lockTimeoutMs: WAITS.lockTimeoutMs,
        });
      } finally {
        await after.destroy();
      }
      expect(await pooledWaitsOf(before)).toMatchObject({ statementTimeoutMs: 0, lockTimeoutMs: 0 });
    } finally {
      await before.destroy();
      await direct.destroy();
    }
  });
});
