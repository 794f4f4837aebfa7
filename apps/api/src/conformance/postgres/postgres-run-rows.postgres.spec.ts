import { DataSource } from 'typeorm';
import { openApiPostgres, type ApiPostgres } from '../../testing/api-database';
import type { StoredRun } from '../run-store';
import { PostgresRunRows } from './postgres-run-rows';

const run = (
  merchantId: string,
  id: string,
  startedAtMs: number,
  finishedAtMs: number | null = null,
  clientAddress: string | null = '203.0.113.1',
): StoredRun => ({
  merchantId,
  id,
  clientAddress,
  url: 'http://127.0.0.1:9/hooks',
  cases: ['fast-ack'],
  startedAtMs,
  finishedAtMs,
  results: [],
});

describe('PostgresRunRows on PostgreSQL', () => {
  let database: ApiPostgres;
  let rows: PostgresRunRows;

  beforeAll(async () => {
    database = await openApiPostgres(1);
    rows = new PostgresRunRows(database.dataSource);
  });

  afterAll(async () => {
    await database.close();
  });

  beforeEach(() => database.dataSource.query('DELETE FROM conformance_runs'));

  it("stores a run, then its end and results; another merchant's run is not found", async () => {
    await rows.put(run('m1', 'r1', 1000));
    await rows.put({
      ...run('m1', 'r1', 1000, 5000),
      results: [{ name: 'fast-ack' }] as unknown as StoredRun['results'],
    });
    expect(await rows.get('m1', 'r1')).toEqual({
      ...run('m1', 'r1', 1000, 5000),
      results: [{ name: 'fast-ack' }],
    });
    expect(await rows.get('m2', 'r1')).toBeUndefined();
  });

  it('shows a begin the runs going on since a time, each with the client address that started it', async () => {
    await rows.put(run('m1', 'a1', 1000, null, '2001:db8::7'));
    await rows.put(run('m2', 'b1', 2000, null, null));
    await rows.put(run('m1', 'a2', 3000, 4000));
    await rows.put(run('m3', 'c1', 500));
    const shown: StoredRun[][] = [];
    await rows.insertIfAdmitted(run('m4', 'd1', 5000), 900, (running) => shown.push(running));
    expect(shown.map((running) => running.map((stored) => [stored.id, stored.clientAddress]).sort())).toEqual(
      [
        [
          ['a1', '2001:db8::7'],
          ['b1', null],
        ],
      ],
    );
    expect(await rows.get('m4', 'd1')).toEqual(run('m4', 'd1', 5000));
  });

  it('stores nothing when the begin is not admitted', async () => {
    await expect(
      rows.insertIfAdmitted(run('m1', 'a1', 1000), 0, () => {
        throw new Error('no room');
      }),
    ).rejects.toThrow('no room');
    expect(await rows.get('m1', 'a1')).toBeUndefined();
  });

  it('admits one of many begins at once on as many connections, as replicas would send them', async () => {
    const replicas = await Promise.all(
      Array.from({ length: 8 }, async () => new DataSource(database.dataSource.options).initialize()),
    );
    try {
      const oneAtATime = (running: StoredRun[]): void => {
        if (running.length > 0) throw new Error('a run is going on');
      };
      const begins = await Promise.allSettled(
        replicas.map((replica, n) =>
          new PostgresRunRows(replica).insertIfAdmitted(run(`m${n}`, `r${n}`, 1000), 0, oneAtATime),
        ),
      );
      expect(begins.filter((begin) => begin.status === 'fulfilled')).toHaveLength(1);
      expect(await database.dataSource.query('SELECT id FROM conformance_runs')).toHaveLength(1);
    } finally {
      await Promise.all(replicas.map((replica) => replica.destroy()));
    }
  });

  it('lists the newest first, and keeps the newest by account and in all', async () => {
    for (let n = 1; n <= 4; n++) await rows.put(run('m1', `a${n}`, n * 1000, n === 2 ? 9000 : null));
    await rows.put(run('m2', 'b1', 500));
    expect((await rows.newest('m1', 3)).map((stored) => stored.id)).toEqual(['a4', 'a3', 'a2']);

    await rows.trim('m1', 2, 10);
    expect((await rows.newest('m1', 10)).map((stored) => stored.id)).toEqual(['a4', 'a3']);
    await rows.trim('m1', 2, 2);
    expect((await rows.newest('m2', 10)).map((stored) => stored.id)).toEqual([]);
    expect((await rows.newest('m1', 10)).map((stored) => stored.id)).toEqual(['a4', 'a3']);
  });
});
