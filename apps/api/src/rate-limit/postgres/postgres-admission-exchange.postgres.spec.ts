import type { DataSource } from 'typeorm';
import type { StatementLog } from '@tps/database/testing';
import { openApiPostgres, type ApiPostgres } from '../../testing/api-database';
import { PostgresAdmissionExchange } from './postgres-admission-exchange';

describe('PostgresAdmissionExchange on PostgreSQL', () => {
  let database: ApiPostgres;
  let dataSource: DataSource;
  let log: StatementLog;

  beforeAll(async () => {
    database = await openApiPostgres(2);
    ({ dataSource, log } = database);
  });

  afterAll(() => database.close());

  async function statementsOf<T>(work: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
    log.clear();
    const result = await work();
    return { result, statements: log.texts };
  }

  const rows = (scope: string) =>
    dataSource.query<Array<{ replica: string; bucket: number; admitted: number }>>(
      'SELECT replica, bucket, admitted FROM rate_limit_counts WHERE scope = $1 ORDER BY replica, bucket',
      [scope],
    );

  it("adds this replica's counts and reads the others' in one statement", async () => {
    const a = new PostgresAdmissionExchange(dataSource, 'one-statement');
    const b = new PostgresAdmissionExchange(dataSource, 'one-statement');
    await a.exchange('a', [{ key: 'm', bucket: 10, admitted: 3 }], 5);
    const { result, statements } = await statementsOf(() =>
      b.exchange(
        'b',
        [
          { key: 'm', bucket: 10, admitted: 2 },
          { key: 'n', bucket: 11, admitted: 1 },
        ],
        5,
      ),
    );
    expect(statements).toHaveLength(1);
    expect(result).toEqual(new Map([['m', 3]]));
    // The same bucket again adds to its row; nothing added is one statement too.
    await b.exchange('b', [{ key: 'm', bucket: 10, admitted: 4 }], 5);
    const idle = await statementsOf(() => a.exchange('a', [], 5));
    expect(idle.statements).toHaveLength(1);
    expect(idle.result).toEqual(
      new Map([
        ['m', 6],
        ['n', 1],
      ]),
    );
  });

  it('removes aged rows once per bucket the window moves on, within the same statement', async () => {
    const a = new PostgresAdmissionExchange(dataSource, 'aged');
    const b = new PostgresAdmissionExchange(dataSource, 'aged');
    await a.exchange('a', [{ key: 'm', bucket: 1, admitted: 5 }], 1);
    await b.exchange('b', [{ key: 'm', bucket: 2, admitted: 1 }], 1);
    const moved = await statementsOf(() => a.exchange('a', [], 2));
    expect(moved.statements).toHaveLength(1);
    expect(moved.statements[0]).toMatch(/DELETE FROM rate_limit_counts/);
    expect(moved.result).toEqual(new Map([['m', 1]]));
    expect(await rows('aged')).toEqual([{ replica: 'b', bucket: 2, admitted: 1 }]);
    // Within the same bucket, no removal is asked again.
    const same = await statementsOf(() => a.exchange('a', [], 2));
    expect(same.statements).toHaveLength(1);
    expect(same.statements[0]).not.toMatch(/DELETE/);
  });

  it('does not tell counts of buckets already out of the window', async () => {
    const a = new PostgresAdmissionExchange(dataSource, 'late');
    await a.exchange(
      'a',
      [
        { key: 'm', bucket: 3, admitted: 2 },
        { key: 'm', bucket: 9, admitted: 1 },
      ],
      5,
    );
    expect(await rows('late')).toEqual([{ replica: 'a', bucket: 9, admitted: 1 }]);
  });
});
