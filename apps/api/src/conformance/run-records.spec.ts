import { LocalRunRecords } from './run-records';
import type { StoredRun } from './run-store';

const run = (id: string, startedAtMs = 1_000): StoredRun => ({
  merchantId: 'm1',
  id,
  clientAddress: '203.0.113.1',
  url: 'http://127.0.0.1:9/hooks',
  cases: [],
  startedAtMs,
  finishedAtMs: null,
  results: [],
});

const oneAtATime = (running: StoredRun[]): void => {
  if (running.length > 0) throw new Error('a run is going on');
};

describe('LocalRunRecords', () => {
  it('admits one of begins sent at once, and stores only it', async () => {
    const records = new LocalRunRecords();
    const begins = await Promise.allSettled(
      ['r1', 'r2', 'r3'].map((id) => records.begin(run(id), 0, oneAtATime)),
    );
    expect(begins.map((begin) => begin.status)).toEqual(['fulfilled', 'rejected', 'rejected']);
    expect((await records.list('m1')).map((stored) => stored.id)).toEqual(['r1']);
  });

  it('shows a begin only the runs going on started after the time it gives', async () => {
    const records = new LocalRunRecords();
    await records.begin(run('old', 1_000), 0, oneAtATime);
    await records.begin(run('new', 5_000), 1_000, oneAtATime);
    await expect(records.begin(run('third', 6_000), 1_000, oneAtATime)).rejects.toThrow('a run is going on');
  });
});
