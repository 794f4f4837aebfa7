import { beforeAfter, finite, summarize, targets, verdict, type Report, type Summary } from './summary';

const summary: Summary = {
  date: '2026-11-23T14:09:52.270Z',
  appsCommit: 'abc1234',
  syncRps: 600,
  prismRps: 400,
  ceilingRps: 7000,
  syncToPrism: 1.5,
  syncP99Ms: 99.9,
  syncApiCpuMs: 1.5,
  syncSimulatorCpuMs: 0.8,
  sqlSyncApi: 6,
  sqlSyncSimulator: 4,
  sqlAsyncApi: 12,
  sqlAsyncSimulator: 8,
  asyncTps: 300,
  asyncFailures: 0,
  asyncApiCpuMs: 3,
  asyncSimulatorCpuMs: 1,
  approvalP99At100Ms: 49,
  startupMs: 2999,
  storedTransactions: 100_000,
  idleApiMiB: 100,
  idleSimulatorMiB: 80,
  storedApiMiB: 120,
  storedSimulatorMiB: 96,
  loadedApiMiB: 110,
  loadedSimulatorMiB: 90,
  chargedTransactions: 100_000,
  collectedIdleApiMiB: 100,
  collectedIdleSimulatorMiB: 80,
  collectedChargedApiMiB: 120,
  collectedChargedSimulatorMiB: 96,
};

describe('targets', () => {
  it('meets every target at its bound', () => {
    const all = targets(summary);
    expect(all).toHaveLength(12);
    expect(all.filter((t) => t.met !== true)).toEqual([]);
  });

  it('misses a target just past its bound', () => {
    const missed = targets({
      ...summary,
      syncToPrism: 1.49,
      syncP99Ms: 100,
      asyncFailures: 1,
      startupMs: 3000,
      storedApiMiB: 120.1,
      collectedChargedApiMiB: 120.1,
    });
    expect(missed.filter((t) => t.met === false).map((t) => t.target)).toEqual([
      'sync charge ≥ 1.5× Prism (same run, 32 terminals)',
      'sync charge p99 < 100 ms',
      '≥ 300 async transactions/s carried to their APPROVAL webhook, every webhook delivered',
      'start-up < 3 s',
      'API memory with 100000 stored transactions within 20 % of idle',
      'API memory after 100000 sync charges within 20 % of idle, both after a full GC',
    ]);
  });

  it('gives no verdict on a figure not measured', () => {
    const [first] = targets({ ...summary, syncToPrism: null, syncRps: null });
    expect(first.measured).toBe('n/a× (n/a against 400 requests/s)');
    expect(verdict(first.met)).toBe('n/a');
  });

  it('shows memory against idle', () => {
    const memory = targets(summary).find((t) => t.target.startsWith('API memory with'));
    expect(memory?.measured).toBe('120.0 MiB against 100.0 idle (1.20×)');
  });
});

describe('beforeAfter', () => {
  it('gives before, after and their ratio, n/a for a figure one side lacks', () => {
    const before = { ...summary, appsCommit: null, syncRps: 100, sqlSyncApi: null } as Summary;
    // An older run's JSON, from before a figure existed.
    delete (before as Partial<Summary>).syncApiCpuMs;
    const lines = beforeAfter(before, summary);
    expect(lines[0]).toBe(
      '| figure | before (unknown commit, 2026-11-23) | after (apps at abc1234) | after ÷ before |',
    );
    expect(lines).toContain('| sync charge, requests/s | 100 | 600 | 6.00× |');
    expect(lines).toContain('| SQL statements per sync charge, API | n/a | 6.0 | n/a |');
    expect(lines).toContain('| API CPU per sync charge, ms | n/a | 1.50 | n/a |');
  });
});

describe('summarize', () => {
  const load = (rps: number, p99: number, api: number) => ({
    rps,
    p50: 1,
    p99,
    non2xx: 0,
    errors: 0,
    total: rps,
    ok: rps,
    statusCodes: { 200: rps },
    apiCpuMsPerCharge: api,
    simulatorCpuMsPerCharge: api / 2,
  });
  const pipeline = (tps: number, failed = 0) => ({
    transactionsPerSecond: tps,
    failedRequests: failed,
    undeliveredWebhooks: 0,
    apiCpuMsPerTransaction: 10,
    simulatorCpuMsPerTransaction: NaN,
    approvalP99: 40,
  });
  const report = {
    machine: { date: 'd', cores: 2, cpu: 'c', memoryGiB: 1, node: 'v20' },
    apps: { root: 'this checkout', commit: 'abc1234' },
    knobs: {},
    startupMs: [2000, 3000, 2500],
    sync: {
      ceiling: [load(7000, 1, 0)],
      prism: [load(200, 1, 0), load(300, 1, 0), load(250, 1, 0)],
      project: [load(100, 80, 2), load(500, 120, 1), load(300, 90, 3)],
      warmup: {},
      memory: {
        idleApiMiB: 100,
        idleSimulatorMiB: 80,
        loadedApiMiB: 130,
        loadedSimulatorMiB: 81,
        transactions: 9000,
      },
      connections: 32,
      durationSeconds: 10,
      warmupSeconds: 5,
    },
    sql: {
      terminals: 32,
      sync: { api: 6.5, simulator: null, transactions: 640 },
      async: { api: null, simulator: null, transactions: 0 },
    },
    closedLoop: [pipeline(40), pipeline(60, 2), pipeline(50)],
    paced: [pipeline(40)],
    sustained: [],
    footprint: {
      stored: 100_000,
      idleApiMiB: [100],
      idleSimulatorMiB: [80],
      loadedApiMiB: [110],
      loadedSimulatorMiB: [85],
      searchP50: [1],
      searchP99: [2],
    },
    webhooks: [],
    memoryAfterCharges: {
      charges: 100_040,
      idle: { api: 140, simulator: 128 },
      idleCollected: { api: 112, simulator: 120 },
      loaded: { api: 210, simulator: 135 },
      loadedCollected: { api: 115, simulator: 130 },
    },
  } as unknown as Report;

  it('takes the medians of the repetitions', () => {
    const s = summarize(report);
    expect(s.syncRps).toBe(300);
    expect(s.prismRps).toBe(250);
    expect(s.syncToPrism).toBe(1.2);
    expect(s.syncP99Ms).toBe(90);
    expect(s.syncApiCpuMs).toBe(2);
    expect(s.asyncTps).toBe(50);
    expect(s.asyncFailures).toBe(2);
    expect(s.startupMs).toBe(2500);
  });

  it('judges the memory after the charges against idle, both after a full GC', () => {
    const s = summarize(report);
    expect([s.chargedTransactions, s.collectedIdleApiMiB, s.collectedChargedApiMiB]).toEqual([
      100_040, 112, 115,
    ]);
    expect([s.collectedIdleSimulatorMiB, s.collectedChargedSimulatorMiB]).toEqual([120, 130]);
  });

  it('reads a run from before the memory after the charges was measured as not measured', () => {
    const { memoryAfterCharges: _left, ...older } = report;
    const memory = targets(summarize(older as Report)).filter((t) => t.target.includes('full GC'));
    expect(memory.map((t) => verdict(t.met))).toEqual(['n/a', 'n/a']);
  });

  it('turns what was not measured into null, as JSON keeps it', () => {
    const s = summarize(report);
    expect(s.sqlSyncApi).toBe(6.5);
    expect(s.sqlSyncSimulator).toBeNull();
    expect(s.asyncSimulatorCpuMs).toBeNull();
    expect(JSON.parse(JSON.stringify(s))).toEqual(s);
  });
});

describe('finite', () => {
  it('keeps numbers and drops NaN, infinities and null', () => {
    expect([1, 0, NaN, Infinity, null, undefined].map(finite)).toEqual([1, 0, null, null, null, null]);
  });
});
