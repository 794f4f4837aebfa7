import type { BalancerCost } from './cluster-balancer';
import type { ChargeKind, ChargePhase, RoutedVsLocal } from './cluster-charges';
import { renderCluster, routedRateOf, type ClusterRun } from './cluster-report';
import type { FloorRun, HandOffFloor } from './handoff-floor';

const wire = { statements: 3, roundTrips: 3, writes: 2, kinds: {} };

function phase(kind: ChargeKind, charges: number, cpuMs: number): ChargePhase {
  const cpu = { apiAsked: 0, apiHolding: 0, simulator: 0, postgres: 0 };
  cpu[kind === 'local' ? 'apiHolding' : 'apiAsked'] = cpuMs;
  return { kind, seconds: 10, charges, refused: {}, errors: 0, cpuMs: cpu, api: wire, simulator: wire };
}

const routedVsLocal: RoutedVsLocal = {
  terminals: 16,
  seconds: 10,
  warmupSeconds: 0,
  warmup: [],
  // Routed at 2,660, 2,740 and 3,100 charges in 10 s: a median of 274/s, 270 once rounded.
  measured: [
    phase('local', 4000, 16_000),
    phase('routed', 2740, 16_440),
    phase('local', 4000, 16_000),
    phase('routed', 2660, 15_960),
    phase('routed', 3100, 18_600),
  ],
  idle: [{ seconds: 10, cpuMs: { apiAsked: 0, apiHolding: 0, simulator: 0, postgres: 0 } }],
};

const floorRun = (kind: FloorRun['kind'], rate: number | null, handOffs: number, ms: number[]): FloorRun => {
  const [askerMs, holderMs, postgresMs] = ms;
  const totalMs = askerMs + holderMs + postgresMs;
  return { kind, rate, seconds: 8, handOffs, askerMs, holderMs, postgresMs, totalMs, idlePercent: 0.25 };
};

const floor: HandOffFloor = {
  replyBytes: 4215,
  waiters: 16,
  runs: [
    floorRun('pacing', 270, 2160, [0.05, 0, 0]),
    floorRun('direct', 270, 2160, [0.25, 0.2, 0]),
    floorRun('stored', 270, 2160, [0.3, 0.26, 0.55]),
    floorRun('stored', null, 26_000, [0.1, 0.1, 0.3]),
    floorRun('words', 270, 2160, [0.28, 0.22, 0.4]),
  ],
};

function run(parts: Partial<ClusterRun>): ClusterRun {
  return {
    machine: { date: '2026-11-28T17:54:41.695Z', cores: 2, cpu: 'test', memoryGiB: 24, node: 'v20' },
    loadAverage: { start: [1, 1, 1], end: [1, 1, 1] },
    knobs: {
      reps: 2,
      seconds: 10,
      warmupSeconds: 0,
      terminals: 16,
      pacedRate: 50,
      pacedSeconds: 30,
      fleet: 10_000,
      idleSeconds: 30,
      pgbenchScale: 10,
      pgbenchSeconds: 20,
    },
    runMinutes: 5,
    partSeconds: {},
    failures: {},
    ...parts,
  };
}

describe('the scale-out section', () => {
  it("paces the floor at the routed phases' median rate, rounded to ten", () => {
    expect(routedRateOf(routedVsLocal)).toBe(270);
    expect(routedRateOf({ ...routedVsLocal, measured: [] })).toBeUndefined();
  });

  it('shows the bare hand-off of each kind at each load, and beside the routed target the ones at its rate', () => {
    const section = renderCluster(run({ routedVsLocal, floor }));
    expect(section).toContain(
      '| through PostgreSQL, a row and a word each way (as the service) | paced at 270/s | 270 | 0.300 | 0.260 | 0.550 | 1.110 |',
    );
    expect(section).toContain(
      '| through PostgreSQL, a row and a word each way (as the service) | closed loop | 3250 | 0.100 | 0.100 | 0.300 | 0.500 |',
    );
    expect(section).toContain(
      '| through PostgreSQL, the words alone (no row) | paced at 270/s | 270 | 0.280 | 0.220 | 0.400 | 0.900 |',
    );
    expect(section).toContain(
      '| a TCP connection between the two processes (no database) | paced at 270/s |',
    );
    expect(section).toContain(
      "| the asker's pacing alone (no hand-off) | paced at 270/s | 270 | 0.050 | 0.000 | 0.000 | 0.050 |",
    );
    expect(section).toContain('(0.25–0.25 % of a core)');
    // Routed 6.0 ms a charge against local 4.0: 2.0 more; the floors beside it, the direct one
    // with its pacing taken off (0.45 − 0.05); still missed.
    expect(section).toMatch(
      /\| a routed charge costs at most 0\.3 ms more CPU than a local one, all processes \| 2\.000 ms more; the bare hand-off alone, paced at 270\/s: 1\.110 ms through PostgreSQL, 0\.400 ms between two processes over TCP with no database \(pacing taken off\) \| \*\*missed\*\* \|/,
    );
  });

  it('says why the floor is missing when it did not run, and judges the routed target alone', () => {
    const section = renderCluster(run({ routedVsLocal, failures: { floor: 'not selected (BENCH_PHASES)' } }));
    expect(section).toContain(
      '### A bare hand-off between two processes\n\nnot measured: not selected (BENCH_PHASES)',
    );
    expect(section).toContain('| 2.000 ms more | **missed** |');
  });

  it("shows the balancer's CPU per charge with its idle share taken off, and its answers", () => {
    const balancer: BalancerCost = {
      terminals: 16,
      warmupSeconds: 8,
      idleMsPerSecond: 2,
      // 3,000 charges in 10 s for 170 ms of CPU, 20 of it idle: 0.050 ms a charge.
      measured: [
        { seconds: 10, charges: 3000, refused: {}, errors: 0, cpuMs: 170, p50: 5, p99: 12 },
        { seconds: 10, charges: 2000, refused: { 503: 1 }, errors: 0, cpuMs: 140, p50: 7, p99: 20 },
      ],
    };
    const section = renderCluster(run({ balancer }));
    expect(section).toContain('(its health checks: 0.20 % of a core)');
    expect(section).toContain('| charges/s (closed loop) | 250 (200–300) |');
    expect(section).toContain('| CPU, HAProxy, ms per charge | 0.055 (0.050–0.060) |');
    expect(section).toContain('| answers not 200, or failed | 1 × 503 |');
    expect(renderCluster(run({ failures: { balancer: 'haproxy is not installed' } }))).toContain(
      '### The load balancer\n\nnot measured: haproxy is not installed',
    );
  });
});
