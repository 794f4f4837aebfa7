import { reportOf, RUNS_PER_ACCOUNT, RunStore, type StoredRun } from './run-store';

function runOf(merchantId: string, id: string): StoredRun {
  return {
    merchantId,
    id,
    clientAddress: '203.0.113.1',
    url: 'http://127.0.0.1:4000/',
    cases: ['fast-ack', 'burst'],
    startedAtMs: 0,
    finishedAtMs: null,
    results: [],
  };
}

describe('RunStore', () => {
  it("keeps an account's newest runs, newest first, and shows no other account's", () => {
    const store = new RunStore();
    for (let i = 0; i <= RUNS_PER_ACCOUNT; i++) store.add(runOf('a', `a-${i}`));
    store.add(runOf('b', 'b-0'));
    const own = store.list('a').map((run) => run.id);
    expect(own).toHaveLength(RUNS_PER_ACCOUNT);
    expect(own[0]).toBe(`a-${RUNS_PER_ACCOUNT}`);
    expect(own).not.toContain('a-0');
    expect(store.get('b', 'a-1')).toBeUndefined();
    expect(store.get('a', 'a-1')?.id).toBe('a-1');
  });

  it('reports cases in the order asked, and scores only those decided so far', () => {
    const run = runOf('a', 'a-0');
    run.results.push({ name: 'burst', rule: 'r', expected: 'e', observed: 'o', passed: false, hint: 'h' });
    expect(reportOf(run)).toMatchObject({ state: 'running', score: { passed: 0, failed: 1, total: 2 } });
    run.results.push({ name: 'fast-ack', rule: 'r', expected: 'e', observed: 'o', passed: true, hint: 'h' });
    run.finishedAtMs = 1000;
    const report = reportOf(run);
    expect(report.cases.map((c) => c.name)).toEqual(['fast-ack', 'burst']);
    expect(report).toMatchObject({ state: 'finished', finished_at: '1970-01-01T00:00:01.000Z' });
  });
});
