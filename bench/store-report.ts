import type { PipelineResult } from './async-pipeline';
import type { Machine } from './lib/machine';
import { withSectionTitled } from './lib/markdown-section';
import type { KindCounts, MessageCounts } from './lib/pg-message-counter';
import { spread, type Spread } from './lib/stats';
import type { ProjectLoad } from './sync-charge-comparison';

/** What one app sent to PostgreSQL per sync charge answered in the measured runs. */
export interface WireCounts {
  statements: number;
  roundTrips: number;
  /** Frontend messages by type over the measured runs (not per charge). */
  messages: MessageCounts;
  /** Statements by kind (`INSERT <table>`, `SELECT`, `BEGIN`, …) over the measured runs (not per charge). */
  kinds?: KindCounts;
  charges: number;
}

export interface StoreSync {
  warmup?: ProjectLoad;
  measured: ProjectLoad[];
  /** PostgreSQL only: counted by a proxy between each app and the server. */
  wire?: { api: WireCounts; simulator: WireCounts };
}

export interface StoreComparison {
  machine: Machine;
  /** The machine's 1, 5 and 15 minute load averages when the run began: how busy it was. */
  loadAverage: number[];
  knobs: { reps: number; seconds: number; warmupSeconds: number; connections: number };
  runMinutes: number;
  sync: { sqlite: StoreSync; postgres: StoreSync };
  closedLoop: { sqlite: PipelineResult[]; postgres: PipelineResult[] };
}

export const SECTION_TITLE = '## Two stores: SQLite and PostgreSQL';

/** The targets set for PostgreSQL against SQLite. */
const TARGETS = { syncRatio: 0.6, p99Ms: 100, closedLoopPerSecond: 250 };

const show = (n: number, digits: number): string => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');
const withRange = (s: Spread, digits: number): string =>
  `${show(s.median, digits)} (${show(s.min, digits)}–${show(s.max, digits)})`;
const verdict = (met: boolean): string => (met ? 'met' : '**missed**');

/**
 * The section for BENCHMARKS.md: both stores side by side (median over the repetitions, min–max),
 * the PostgreSQL/SQLite ratio of the medians, the wire counts and the targets.
 */
export function renderStores(result: StoreComparison): string {
  const { sync, closedLoop, knobs, machine } = result;
  const syncOf = (pick: (r: ProjectLoad) => number) => ({
    sqlite: spread(sync.sqlite.measured.map(pick)),
    postgres: spread(sync.postgres.measured.map(pick)),
  });
  const loopOf = (pick: (r: PipelineResult) => number) => ({
    sqlite: spread(closedLoop.sqlite.map(pick)),
    postgres: spread(closedLoop.postgres.map(pick)),
  });
  const row = (name: string, figures: { sqlite: Spread; postgres: Spread }, digits: number): string =>
    `| ${name} | ${withRange(figures.sqlite, digits)} | ${withRange(figures.postgres, digits)} | ${show(
      figures.postgres.median / figures.sqlite.median,
      2,
    )}× |`;
  /** Answers that were not 2xx, by status, and requests that failed: refusals named, not counted as work. */
  const refused = (runs: ProjectLoad[]): string => {
    const byStatus: Record<string, number> = {};
    for (const run of runs)
      for (const [status, n] of Object.entries(run.statusCodes))
        if (!status.startsWith('2')) byStatus[status] = (byStatus[status] ?? 0) + n;
    const errors = runs.reduce((n, r) => n + r.errors, 0);
    const named = [
      ...Object.entries(byStatus).map(([status, n]) => `${n} × ${status}`),
      ...(errors > 0 ? [`${errors} failed`] : []),
    ];
    return named.length === 0 ? 'none' : named.join(', ');
  };
  const failedLoop = (runs: PipelineResult[]): number =>
    runs.reduce((n, r) => n + r.failedRequests + r.undeliveredWebhooks, 0);

  const rps = syncOf((r) => r.rps);
  const p99 = syncOf((r) => r.p99);
  const loop = loopOf((r) => r.transactionsPerSecond);
  const ratio = rps.postgres.median / rps.sqlite.median;
  const wire = sync.postgres.wire;
  const kindsPerCharge = (counts: WireCounts): string =>
    Object.entries(counts.kinds ?? {})
      .map(([kind, n]) => [kind, n / counts.charges] as const)
      .filter(([, n]) => n >= 0.01)
      .sort(([, a], [, b]) => b - a)
      .map(([kind, n]) => `\`${kind}\` ${show(n, 2)}`)
      .join(', ');
  const wireRow = (app: string, counts: WireCounts): string =>
    `| ${app} | ${show(counts.roundTrips, 1)} | ${show(counts.statements, 1)} | ${Object.entries(
      counts.messages,
    )
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([type, n]) => `${type} ${show(n / counts.charges, 1)}`)
      .join(', ')} |`;

  return [
    SECTION_TITLE,
    '',
    'Reproduce with `npm run bench:stores` (it builds first): the project on each store in',
    'one run, after warm-up, on the same machine at the same time, so the ratios compare even when the',
    'machine is busy. Figures are the median over the repetitions, (min–max); the ratio is',
    'PostgreSQL over SQLite of the medians.',
    '',
    `- date: ${machine.date}`,
    `- machine: ${machine.cores} cores, ${machine.cpu}, ${machine.memoryGiB} GiB; Node ${machine.node}`,
    `- load average when the run began: ${result.loadAverage.map((n) => n.toFixed(2)).join(', ')} (1, 5, 15 min)`,
    `  on ${machine.cores} cores: the machine was shared with other work during the run, so the absolute figures are`,
    '  lower than an idle machine gives; the ratios, both stores measured in the same run, are what it is for',
    `- load: ${knobs.connections} instant terminals, one connection each; ${knobs.warmupSeconds} s warm-up,`,
    `  then ${knobs.reps} × ${knobs.seconds} s sync-charge runs on each store; ${knobs.reps} async closed`,
    `  loops per store (each ${knobs.warmupSeconds} s warm-up, ${knobs.seconds} s measured), the stores taking turns`,
    `- run: ${result.runMinutes.toFixed(1)} min after the build`,
    '- PostgreSQL: a database per app on the local server (127.0.0.1:5432), reached directly; the',
    '  statements per charge are counted in a run of their own (a warm-up, then one run), each app',
    '  reaching the server through a counting TCP proxy in the benchmark process',
    '',
    "CPU is the apps' own processes: SQLite's work runs inside the app and counts there, the",
    "PostgreSQL server's work is in its own processes and does not.",
    '',
    '| | SQLite | PostgreSQL | PostgreSQL / SQLite |',
    '| --- | --- | --- | --- |',
    row('sync charges/s', rps, 0),
    row(
      'sync charge p50, ms',
      syncOf((r) => r.p50),
      1,
    ),
    row('sync charge p99, ms', p99, 1),
    row(
      'API CPU per sync charge, ms',
      syncOf((r) => r.apiCpuMsPerCharge),
      2,
    ),
    row(
      'simulator CPU per sync charge, ms',
      syncOf((r) => r.simulatorCpuMsPerCharge),
      2,
    ),
    `| sync answers not 2xx, or failed (measured runs) | ${refused(sync.sqlite.measured)} | ${refused(sync.postgres.measured)} | |`,
    row('async closed loop, transactions/s to APPROVAL webhook', loop, 0),
    row(
      'APPROVAL stored → received p99 (closed loop), ms',
      loopOf((r) => r.approvalP99),
      1,
    ),
    row(
      'API CPU per async transaction, ms',
      loopOf((r) => r.apiCpuMsPerTransaction),
      2,
    ),
    `| async refused or undelivered (measured runs) | ${failedLoop(closedLoop.sqlite)} | ${failedLoop(closedLoop.postgres)} | |`,
    '',
    'What each app sends to PostgreSQL per sync charge answered in the counted run, counted from',
    "the wire: statements are simple queries ('Q') and executes ('E'), round trips are simple",
    "queries and syncs ('S'), each of which waits for the server. Background work during the runs",
    '(the outbox, the terminal link) is included, as it is part of the cost of the load.',
    '',
    '| app | round trips/charge | statements/charge | messages/charge by type |',
    '| --- | --- | --- | --- |',
    ...(wire ? [wireRow('API', wire.api), wireRow('simulator', wire.simulator)] : ['| n/a | | | |']),
    '',
    ...(wire?.api.kinds && wire.simulator.kinds
      ? [
          'The same statements by what they do, per sync charge:',
          '',
          `- API: ${kindsPerCharge(wire.api)}`,
          `- simulator: ${kindsPerCharge(wire.simulator)}`,
          '',
        ]
      : []),
    '| target | measured (median) | verdict |',
    '| --- | --- | --- |',
    `| PostgreSQL sync charge ≥ ${TARGETS.syncRatio}× SQLite's, same run | ${show(ratio, 2)}× (${show(
      rps.postgres.median,
      0,
    )} against ${show(rps.sqlite.median, 0)} charges/s) | ${verdict(ratio >= TARGETS.syncRatio)} |`,
    `| PostgreSQL sync charge p99 < ${TARGETS.p99Ms} ms at ${knobs.connections} terminals | ${show(
      p99.postgres.median,
      1,
    )} ms | ${verdict(p99.postgres.median < TARGETS.p99Ms)} |`,
    `| PostgreSQL async closed loop ≥ ${TARGETS.closedLoopPerSecond} transactions/s | ${show(
      loop.postgres.median,
      0,
    )}/s, ${failedLoop(closedLoop.postgres)} refused or undelivered | ${verdict(
      loop.postgres.median >= TARGETS.closedLoopPerSecond && failedLoop(closedLoop.postgres) === 0,
    )} |`,
    `| PostgreSQL round trips and statements per sync charge reported | ${
      wire
        ? `API ${show(wire.api.roundTrips, 1)} round trips, ${show(wire.api.statements, 1)} statements; ` +
          `simulator ${show(wire.simulator.roundTrips, 1)}, ${show(wire.simulator.statements, 1)}`
        : 'n/a'
    } | ${verdict(wire !== undefined)} |`,
    "| SQLite not below 0.9× the previous commit's figures, same run | not measured by this benchmark: " +
      '`npm run bench` with BENCH_APPS_ROOT and BENCH_BASELINE times two commits in one run | not judged here |',
    '',
  ].join('\n');
}

/** `markdown` with the two-store section replaced if there, else put before "Where the time goes", else at the end. */
export function withSection(markdown: string, section: string): string {
  return withSectionTitled(markdown, SECTION_TITLE, section);
}
