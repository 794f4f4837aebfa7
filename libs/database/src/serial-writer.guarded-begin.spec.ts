import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sqlite3 from 'sqlite3';
import { DataSource, type MigrationInterface, type QueryRunner } from 'typeorm';
import { dataSourceOptions } from './data-source-options';
import { PreparedDatabase } from './prepared-sqlite';
import { SerialWriter } from './serial-writer';

class CreateRows1700000000000 implements MigrationInterface {
  name = 'CreateRows1700000000000';
  async up(runner: QueryRunner): Promise<void> {
    await runner.query('CREATE TABLE rows (writer TEXT NOT NULL)');
  }
  async down(): Promise<void> {}
}

/** A batch whose writes run at the same time, on the app's own SQLite driver (PreparedDatabase). */
describe('SerialWriter: the first trip of a batch of writes at once', () => {
  let dir: string;
  let file: string;
  let dataSource: DataSource;
  let writer: SerialWriter;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tps-guarded-begin-'));
    file = join(dir, 'rows.sqlite');
    const options = dataSourceOptions({ url: file, entities: [], migrations: [CreateRows1700000000000] });
    if (options.type !== 'sqlite') throw new Error('a file path gives SQLite');
    // Short, so that a lock held elsewhere fails BEGIN quickly.
    dataSource = new DataSource({ ...options, busyTimeout: 50 });
    await dataSource.initialize();
    writer = new SerialWriter(dataSource);
  });

  afterEach(async () => {
    jest.restoreAllMocks();
    if (dataSource.isInitialized) await dataSource.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  const rows = (): Promise<string[]> =>
    dataSource
      .query<Array<{ writer: string }>>('SELECT writer FROM rows ORDER BY rowid')
      .then((all) => all.map((r) => r.writer));

  const insert = (name: string) => (manager: DataSource['manager']) =>
    manager.query('INSERT INTO rows VALUES (?)', [name]);

  /** Two writes with different keys, queued behind one under way: they share the next batch. */
  function batchOfTwo(): Promise<Array<PromiseSettledResult<unknown>>> {
    let release: () => void = () => undefined;
    const holding = new Promise<void>((resolve) => (release = resolve));
    const held = writer.write(() => holding);
    const both = [writer.writeKeyed(['a'], insert('a')), writer.writeKeyed(['b'], insert('b'))];
    release();
    return Promise.allSettled([held, ...both]);
  }

  it('arms the guard, begins and opens it in one trip through the pool', async () => {
    const scripts = jest.spyOn(PreparedDatabase.prototype, 'script');
    const statements = jest.spyOn(PreparedDatabase.prototype, 'runPrepared');
    await batchOfTwo();
    expect((await rows()).sort()).toEqual(['a', 'b']);
    expect(scripts.mock.calls.map(([sql]) => sql)).toEqual([
      "UPDATE temp.tps_batch_guard SET state = 'armed'; BEGIN IMMEDIATE; UPDATE temp.tps_batch_guard SET state = 'open'",
    ]);
    // The write under way began alone, with its own statement; the batch did not.
    expect(statements.mock.calls.filter(([sql]) => sql === 'BEGIN IMMEDIATE')).toHaveLength(1);
  });

  it('leaves the writer able to write after BEGIN fails within that trip', async () => {
    await batchOfTwo();
    // Another process holds the write lock: every BEGIN IMMEDIATE of the writer times out.
    const other = new sqlite3.Database(file);
    await new Promise<void>((resolve, reject) =>
      other.exec('BEGIN IMMEDIATE', (error) => (error === null ? resolve() : reject(error))),
    );
    try {
      const settled = await batchOfTwo();
      expect(settled.map((result) => result.status)).toEqual(['rejected', 'rejected', 'rejected']);
    } finally {
      await new Promise<void>((resolve) => other.exec('ROLLBACK', () => other.close(() => resolve())));
    }
    // Left armed, the guard's triggers would refuse this write; left in a transaction, it could not begin.
    await writer.write(insert('later'));
    expect((await rows()).sort()).toEqual(['a', 'b', 'later']);
  });
});
