import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sqlite3 from 'sqlite3';
import { openSqliteConnection } from './sqlite/sqlite-driver';

const SECRETS = ['plain-secret-a', 'plain-secret-b', 'plain-secret-c'];

/** Rows written in clear, then replaced by longer values (secrets sealed at rest), on `db`. */
async function replaceInPlace(db: sqlite3.Database): Promise<void> {
  const run = (sql: string, params: unknown[] = []) =>
    new Promise<void>((resolve, reject) =>
      db.run(sql, params, (error) => (error ? reject(error) : resolve())),
    );
  await run('PRAGMA journal_mode = WAL');
  await run('CREATE TABLE m (id varchar PRIMARY KEY NOT NULL, k varchar NOT NULL)');
  for (const secret of SECRETS) await run('INSERT INTO m VALUES (?, ?)', [secret.slice(-1), secret]);
  for (const secret of SECRETS)
    await run('UPDATE m SET k = ? WHERE id = ?', [`v1:k:${'Z'.repeat(120)}`, secret.slice(-1)]);
  await run('PRAGMA wal_checkpoint(TRUNCATE)');
  await new Promise<void>((resolve) => db.close(() => resolve()));
}

function secretsLeftIn(file: string): string[] {
  const bytes = readFileSync(file).toString('latin1');
  return SECRETS.filter((secret) => bytes.includes(secret));
}

/** Contract, "Secrets at rest": a replaced value leaves no plaintext in the file's free space. */
describe('the apps open SQLite with secure_delete', () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tps-secure-delete-'));
  });

  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('a plain connection leaves the replaced values in the page (what the pragma prevents)', async () => {
    const file = join(dir, 'plain.sqlite');
    await replaceInPlace(new sqlite3.Database(file));
    expect(secretsLeftIn(file)).toEqual(SECRETS);
  });

  it("the apps' connection overwrites them", async () => {
    const file = join(dir, 'apps.sqlite');
    await replaceInPlace(openSqliteConnection(file));
    expect(secretsLeftIn(file)).toEqual([]);
  });
});
