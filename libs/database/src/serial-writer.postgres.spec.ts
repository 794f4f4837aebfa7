import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { TestStore } from '@tps/testing';
import { closeDataSource } from './close-data-source';
import { dataSourceOptions } from './data-source-options';
import { SerialWriter } from './serial-writer';
import { sqlOf } from './sql';
import { StatementLog } from './testing/statement-log';

describe('SerialWriter on PostgreSQL: writes of one statement at once', () => {
  let dir: string;
  let store: TestStore;
  let dataSource: DataSource;
  let writer: SerialWriter;
  let log: StatementLog;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tps-writer-pg-'));
    store = new TestStore('postgres', dir);
    log = new StatementLog();
    // A pool of 2: the writes below wait for a connection of it.
    dataSource = new DataSource({
      ...dataSourceOptions({ url: await store.url('writer'), entities: [], migrations: [], poolSize: 2 }),
      logging: ['query'],
      logger: log,
    });
    await dataSource.initialize();
    await dataSource.query('CREATE TABLE marks (key text, n integer, UNIQUE (key, n))');
    writer = new SerialWriter(dataSource);
  });

  afterAll(async () => {
    await closeDataSource(dataSource);
    await store.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  const mark = (key: string, n: number): Promise<number> =>
    writer.writeOne((manager) => sqlOf(manager).run('INSERT INTO marks (key, n) VALUES (?, ?)', [key, n]));

  it('runs each as a transaction of its own (no BEGIN or COMMIT), one failing alone', async () => {
    await mark('seed', 1);
    log.clear();
    const results = await Promise.allSettled([
      mark('a', 0),
      mark('a', 1),
      mark('seed', 1),
      mark('a', 2),
      mark('b', 1),
    ]);
    expect(results.map((result) => result.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
    ]);
    expect(log.texts.filter((text) => /^(START|BEGIN|COMMIT|ROLLBACK)/i.test(text))).toEqual([]);
    expect(log.texts.filter((text) => text.startsWith('INSERT'))).toHaveLength(5);
    const rows = await dataSource.query<Array<{ key: string; n: number }>>(
      'SELECT key, n FROM marks WHERE key IN ($1, $2) ORDER BY key, n',
      ['a', 'b'],
    );
    expect(rows.map((row) => `${row.key}${row.n}`)).toEqual(['a0', 'a1', 'a2', 'b1']);
  });
});
