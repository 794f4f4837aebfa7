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

  it('reads back the client address that started each run going on, or none stored', async () => {
    await rows.put(run('m1', 'a1', 1000, null, '2001:db8::7'));
    await rows.put(run('m2', 'b1', 2000, null, null));
    const going = await rows.unfinishedSince(0);
    expect(going.map((stored) => [stored.id, stored.clientAddress]).sort()).toEqual([
      ['a1', '2001:db8::7'],
      ['b1', null],
    ]);
  });

  it('lists the newest first, reads the unfinished ones since a time, and keeps the newest by account and in all', async () => {
    for (let n = 1; n <= 4; n++) await rows.put(run('m1', `a${n}`, n * 1000, n === 2 ? 9000 : null));
    await rows.put(run('m2', 'b1', 500));
    expect((await rows.newest('m1', 3)).map((stored) => stored.id)).toEqual(['a4', 'a3', 'a2']);
    expect((await rows.unfinishedSince(1000)).map((stored) => stored.id).sort()).toEqual(['a3', 'a4']);

    await rows.trim('m1', 2, 10);
    expect((await rows.newest('m1', 10)).map((stored) => stored.id)).toEqual(['a4', 'a3']);
    await rows.trim('m1', 2, 2);
    expect((await rows.newest('m2', 10)).map((stored) => stored.id)).toEqual([]);
    expect((await rows.newest('m1', 10)).map((stored) => stored.id)).toEqual(['a4', 'a3']);
  });
});
