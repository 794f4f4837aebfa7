import { CUT_MARGIN_MS } from './run-records';
import type { RunRows } from './run-rows';
import { RUNS_IN_ALL, RUNS_PER_ACCOUNT, type StoredRun } from './run-store';
import { StoredRunRecords } from './stored-run-records';

/** Rows in memory: what was put, and the trims asked for. */
class MemoryRows implements RunRows {
  readonly puts: StoredRun[] = [];
  readonly trims: Array<[string, number, number]> = [];

  put(run: StoredRun): Promise<void> {
    this.puts.push(run);
    return Promise.resolve();
  }

  trim(merchantId: string, perAccount: number, inAll: number): Promise<void> {
    this.trims.push([merchantId, perAccount, inAll]);
    return Promise.resolve();
  }

  get(merchantId: string, id: string): Promise<StoredRun | undefined> {
    return Promise.resolve(this.puts.findLast((run) => run.merchantId === merchantId && run.id === id));
  }

  newest(): Promise<StoredRun[]> {
    return Promise.resolve([...this.puts].reverse());
  }

  insertIfAdmitted(run: StoredRun, _sinceMs: number, admit: (running: StoredRun[]) => void): Promise<void> {
    admit(this.puts.filter((stored) => stored.finishedAtMs === null));
    return this.put(run);
  }
}

const RUN_MS = 60_000;
const started = (): StoredRun => ({
  merchantId: 'm1',
  id: 'r1',
  clientAddress: '203.0.113.1',
  url: 'http://127.0.0.1:9/hooks',
  cases: [],
  startedAtMs: 1_000,
  finishedAtMs: null,
  results: [],
});

describe('StoredRunRecords', () => {
  it('stores the run as it was when saved, and makes room when a run begins', async () => {
    const rows = new MemoryRows();
    const records = new StoredRunRecords(rows, RUN_MS, () => 2_000);
    const run = started();
    await records.begin(run, 0, () => undefined);
    run.results = [{ name: 'fast-ack' }] as unknown as StoredRun['results'];
    const saved = records.save(run);
    run.finishedAtMs = 5_000;
    await saved;
    expect(rows.puts.map((stored) => [stored.results.length, stored.finishedAtMs])).toEqual([
      [0, null],
      [1, null],
    ]);
    expect(rows.trims).toEqual([['m1', RUNS_PER_ACCOUNT, RUNS_IN_ALL]]);
  });

  it('stores nothing when the run is not admitted, and throws the refusal', async () => {
    const rows = new MemoryRows();
    const records = new StoredRunRecords(rows, RUN_MS, () => 2_000);
    await expect(
      records.begin(started(), 0, () => {
        throw new Error('no room');
      }),
    ).rejects.toThrow('no room');
    expect(rows.puts).toEqual([]);
    expect(rows.trims).toEqual([]);
  });

  it('shows a run left unfinished past its limit and the margin as cut at its limit', async () => {
    const rows = new MemoryRows();
    let now = 1_000 + RUN_MS + CUT_MARGIN_MS;
    const records = new StoredRunRecords(rows, RUN_MS, () => now);
    await records.save(started());
    expect((await records.get('m1', 'r1'))?.finishedAtMs).toBeNull();
    const shown: StoredRun[][] = [];
    now += 1;
    expect((await records.get('m1', 'r1'))?.finishedAtMs).toBe(1_000 + RUN_MS);
    expect((await records.list('m1')).map((run) => run.finishedAtMs)).toEqual([1_000 + RUN_MS]);
    await records.begin({ ...started(), id: 'r2' }, 0, (running) => shown.push(running));
    expect(shown.map((running) => running.map((run) => run.finishedAtMs))).toEqual([[1_000 + RUN_MS]]);
  });
});
