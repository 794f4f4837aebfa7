/**
 * The main figures of a run (what the targets judge and what a before/after compares), the targets
 * with their verdicts, and the before/after table. Pure: computed from a run's report, or read
 * back from the JSON of an earlier run (BENCH_BASELINE), where a missing figure is null.
 */
import type { PipelineResult } from '../async-pipeline';
import type { Footprint } from '../footprint';
import type { MemoryAfterCharges } from '../memory-after-charges';
import type { SqlStatements } from '../sql-statements';
import type { SyncChargeComparison } from '../sync-charge-comparison';
import type { WebhookDeliveryResult } from '../webhook-delivery';
import type { Machine } from './machine';
import { spread } from './stats';

/** Everything one `npm run bench` measured, as run.ts collects it and writes it as JSON. */
export interface Report {
  machine: Machine;
  /** The apps timed: their checkout (BENCH_APPS_ROOT) and its commit, if git knows it. */
  apps: { root: string; commit: string | null };
  knobs: Record<string, number | string>;
  /** How long each part of the run took, s (the build not included). */
  partSeconds?: Record<string, number>;
  startupMs: number[];
  sync: SyncChargeComparison;
  sql: SqlStatements;
  closedLoop: PipelineResult[];
  paced: PipelineResult[];
  sustained: PipelineResult[];
  footprint: Footprint;
  webhooks: WebhookDeliveryResult[];
  /** Absent from the JSON of runs before it was measured. */
  memoryAfterCharges?: MemoryAfterCharges;
}

type Figure = number | null;

export interface Summary {
  date: string;
  appsCommit: string | null;
  syncRps: Figure;
  prismRps: Figure;
  ceilingRps: Figure;
  syncToPrism: Figure;
  syncP99Ms: Figure;
  syncApiCpuMs: Figure;
  syncSimulatorCpuMs: Figure;
  sqlSyncApi: Figure;
  sqlSyncSimulator: Figure;
  sqlAsyncApi: Figure;
  sqlAsyncSimulator: Figure;
  asyncTps: Figure;
  /** Refused requests and undelivered webhooks over all closed-loop runs. */
  asyncFailures: Figure;
  asyncApiCpuMs: Figure;
  asyncSimulatorCpuMs: Figure;
  approvalP99At100Ms: Figure;
  startupMs: Figure;
  /** Resident memory, MiB: idle and with the stored transactions (footprint, fresh processes). */
  storedTransactions: Figure;
  idleApiMiB: Figure;
  idleSimulatorMiB: Figure;
  storedApiMiB: Figure;
  storedSimulatorMiB: Figure;
  /** Resident memory, MiB, of the sync comparison's processes a second after all its load. */
  loadedApiMiB: Figure;
  loadedSimulatorMiB: Figure;
  /** Resident memory, MiB, after a full garbage collection: idle, then after `chargedTransactions`. */
  chargedTransactions: Figure;
  collectedIdleApiMiB: Figure;
  collectedIdleSimulatorMiB: Figure;
  collectedChargedApiMiB: Figure;
  collectedChargedSimulatorMiB: Figure;
}

/** A finite number, or null (NaN, a missing run, or null read back from JSON). */
export const finite = (n: number | null | undefined): Figure =>
  typeof n === 'number' && Number.isFinite(n) ? n : null;

const medianOf = (values: Array<number | null | undefined>): Figure => {
  const known = values.filter((v): v is number => finite(v) !== null);
  return known.length === 0 ? null : spread(known).median;
};

/** a ÷ b; null when either is unknown (also a field an older run's JSON does not have). */
const ratio = (a: Figure | undefined, b: Figure | undefined): Figure => {
  const [x, y] = [finite(a), finite(b)];
  return x === null || y === null || y === 0 ? null : x / y;
};

export function summarize(report: Report): Summary {
  const { sync, sql, footprint, memoryAfterCharges: charged } = report;
  const syncRps = medianOf(sync.project.map((r) => r.rps));
  const prismRps = medianOf(sync.prism.map((r) => r.rps));
  return {
    date: report.machine.date,
    appsCommit: report.apps.commit,
    syncRps,
    prismRps,
    ceilingRps: medianOf(sync.ceiling.map((r) => r.rps)),
    syncToPrism: ratio(syncRps, prismRps),
    syncP99Ms: medianOf(sync.project.map((r) => r.p99)),
    syncApiCpuMs: medianOf(sync.project.map((r) => r.apiCpuMsPerCharge)),
    syncSimulatorCpuMs: medianOf(sync.project.map((r) => r.simulatorCpuMsPerCharge)),
    sqlSyncApi: finite(sql.sync.api),
    sqlSyncSimulator: finite(sql.sync.simulator),
    sqlAsyncApi: finite(sql.async.api),
    sqlAsyncSimulator: finite(sql.async.simulator),
    asyncTps: medianOf(report.closedLoop.map((r) => r.transactionsPerSecond)),
    asyncFailures: report.closedLoop.reduce((sum, r) => sum + r.failedRequests + r.undeliveredWebhooks, 0),
    asyncApiCpuMs: medianOf(report.closedLoop.map((r) => r.apiCpuMsPerTransaction)),
    asyncSimulatorCpuMs: medianOf(report.closedLoop.map((r) => r.simulatorCpuMsPerTransaction)),
    approvalP99At100Ms: medianOf(report.paced.map((r) => r.approvalP99)),
    startupMs: medianOf(report.startupMs),
    storedTransactions: footprint.stored,
    idleApiMiB: medianOf(footprint.idleApiMiB),
    idleSimulatorMiB: medianOf(footprint.idleSimulatorMiB),
    storedApiMiB: medianOf(footprint.loadedApiMiB),
    storedSimulatorMiB: medianOf(footprint.loadedSimulatorMiB),
    loadedApiMiB: finite(sync.memory.loadedApiMiB),
    loadedSimulatorMiB: finite(sync.memory.loadedSimulatorMiB),
    chargedTransactions: finite(charged?.charges),
    collectedIdleApiMiB: finite(charged?.idleCollected.api),
    collectedIdleSimulatorMiB: finite(charged?.idleCollected.simulator),
    collectedChargedApiMiB: finite(charged?.loadedCollected.api),
    collectedChargedSimulatorMiB: finite(charged?.loadedCollected.simulator),
  };
}

/** A figure for a table: `digits` decimals, or n/a. */
export const show = (n: Figure | undefined, digits = 1): string =>
  n === null || n === undefined || !Number.isFinite(n) ? 'n/a' : n.toFixed(digits);

export interface Target {
  target: string;
  measured: string;
  /** undefined: not measured in this run (an app without the hook, a part left out). */
  met: boolean | undefined;
}

const judge = (value: Figure, holds: (v: number) => boolean): boolean | undefined =>
  value === null ? undefined : holds(value);

/** How much above idle, as a factor. */
const memory = (loaded: Figure, idle: Figure): string =>
  `${show(loaded)} MiB against ${show(idle)} idle (${show(ratio(loaded, idle), 2)}×)`;

/** The speed and memory targets, each with its figure from this run and its verdict. */
export function targets(s: Summary): Target[] {
  const stored = show(s.storedTransactions, 0);
  const afterCharges = `${show(s.chargedTransactions, 0)} sync charges`;
  const withinIdle = (loaded: Figure, idle: Figure): boolean | undefined =>
    judge(ratio(loaded, idle), (r) => r <= 1.2);
  return [
    {
      target: 'sync charge ≥ 1.5× Prism (same run, 32 terminals)',
      measured: `${show(s.syncToPrism, 2)}× (${show(s.syncRps, 0)} against ${show(s.prismRps, 0)} requests/s)`,
      met: judge(s.syncToPrism, (r) => r >= 1.5),
    },
    {
      target: 'sync charge p99 < 100 ms',
      // Two decimals: 99.96 shown as 100.0 would read as a miss.
      measured: `${show(s.syncP99Ms, 2)} ms`,
      met: judge(s.syncP99Ms, (ms) => ms < 100),
    },
    {
      target: '≥ 300 async transactions/s carried to their APPROVAL webhook, every webhook delivered',
      measured: `${show(s.asyncTps, 0)}/s, ${show(s.asyncFailures, 0)} refused or undelivered`,
      met:
        s.asyncTps === null || s.asyncFailures === null
          ? undefined
          : s.asyncTps >= 300 && s.asyncFailures === 0,
    },
    {
      target: 'p99 APPROVAL stored → received < 50 ms at 100 transactions/s',
      measured: `${show(s.approvalP99At100Ms)} ms`,
      met: judge(s.approvalP99At100Ms, (ms) => ms < 50),
    },
    {
      target: 'API CPU per sync charge ≤ 1.5 ms',
      measured: `${show(s.syncApiCpuMs, 2)} ms`,
      met: judge(s.syncApiCpuMs, (ms) => ms <= 1.5),
    },
    {
      target: 'simulator CPU per sync charge ≤ 0.8 ms',
      measured: `${show(s.syncSimulatorCpuMs, 2)} ms`,
      met: judge(s.syncSimulatorCpuMs, (ms) => ms <= 0.8),
    },
    {
      target: 'API CPU per async transaction ≤ 3 ms (closed loop)',
      measured: `${show(s.asyncApiCpuMs, 2)} ms`,
      met: judge(s.asyncApiCpuMs, (ms) => ms <= 3),
    },
    {
      target: 'start-up < 3 s',
      measured: `${show(s.startupMs, 0)} ms`,
      met: judge(s.startupMs, (ms) => ms < 3000),
    },
    {
      target: `API memory with ${stored} stored transactions within 20 % of idle`,
      measured: memory(s.storedApiMiB, s.idleApiMiB),
      met: withinIdle(s.storedApiMiB, s.idleApiMiB),
    },
    {
      target: `simulator memory with ${stored} stored transactions within 20 % of idle`,
      measured: memory(s.storedSimulatorMiB, s.idleSimulatorMiB),
      met: withinIdle(s.storedSimulatorMiB, s.idleSimulatorMiB),
    },
    {
      target: `API memory after ${afterCharges} within 20 % of idle, both after a full GC`,
      measured: memory(s.collectedChargedApiMiB, s.collectedIdleApiMiB),
      met: withinIdle(s.collectedChargedApiMiB, s.collectedIdleApiMiB),
    },
    {
      target: `simulator memory after ${afterCharges} within 20 % of idle, both after a full GC`,
      measured: memory(s.collectedChargedSimulatorMiB, s.collectedIdleSimulatorMiB),
      met: withinIdle(s.collectedChargedSimulatorMiB, s.collectedIdleSimulatorMiB),
    },
  ];
}

export const verdict = (met: boolean | undefined): string =>
  met === undefined ? 'n/a' : met ? 'met' : '**missed**';

const row = (cells: string[]): string => `| ${cells.join(' | ')} |`;

/** The main figures of an earlier run (`before`) against this one, with after ÷ before. */
export function beforeAfter(before: Summary, after: Summary): string[] {
  const line = (name: string, pick: (s: Summary) => Figure, digits = 1): string => {
    const change = ratio(pick(after), pick(before));
    return row([
      name,
      show(pick(before), digits),
      show(pick(after), digits),
      change === null ? 'n/a' : `${change.toFixed(2)}×`,
    ]);
  };
  const commit = (s: Summary): string =>
    s.appsCommit === null ? 'unknown commit' : `apps at ${s.appsCommit}`;
  return [
    row([
      'figure',
      `before (${commit(before)}, ${before.date.slice(0, 10)})`,
      `after (${commit(after)})`,
      'after ÷ before',
    ]),
    row(['---', '---', '---', '---']),
    line('sync charge, requests/s', (s) => s.syncRps, 0),
    line('sync charge ÷ Prism (same run)', (s) => s.syncToPrism, 2),
    line('sync charge p99, ms', (s) => s.syncP99Ms),
    line('API CPU per sync charge, ms', (s) => s.syncApiCpuMs, 2),
    line('simulator CPU per sync charge, ms', (s) => s.syncSimulatorCpuMs, 2),
    line('SQL statements per sync charge, API', (s) => s.sqlSyncApi),
    line('SQL statements per sync charge, simulator', (s) => s.sqlSyncSimulator),
    line('SQL statements per async transaction, API', (s) => s.sqlAsyncApi),
    line('SQL statements per async transaction, simulator', (s) => s.sqlAsyncSimulator),
    line('async transactions/s, closed loop', (s) => s.asyncTps, 0),
    line('API CPU per async transaction, ms', (s) => s.asyncApiCpuMs, 2),
    line('simulator CPU per async transaction, ms', (s) => s.asyncSimulatorCpuMs, 2),
    line('APPROVAL stored → received p99 at 100/s, ms', (s) => s.approvalP99At100Ms),
    line('start-up, ms', (s) => s.startupMs, 0),
    line('API memory idle, MiB', (s) => s.idleApiMiB),
    line('API memory with the stored transactions, MiB', (s) => s.storedApiMiB),
    line('API memory after the sync load, MiB', (s) => s.loadedApiMiB),
    line('simulator memory idle, MiB', (s) => s.idleSimulatorMiB),
    line('simulator memory with the stored transactions, MiB', (s) => s.storedSimulatorMiB),
    line('simulator memory after the sync load, MiB', (s) => s.loadedSimulatorMiB),
    line('API memory idle, after a full GC, MiB', (s) => s.collectedIdleApiMiB),
    line('API memory after the charges, after a full GC, MiB', (s) => s.collectedChargedApiMiB),
    line('simulator memory idle, after a full GC, MiB', (s) => s.collectedIdleSimulatorMiB),
    line('simulator memory after the charges, after a full GC, MiB', (s) => s.collectedChargedSimulatorMiB),
  ];
}
