/**
 * `npm run bench:compare`: this checkout's apps against an earlier build, alternating, in one run,
 * on one store: its section of BENCHMARKS.md. Every round starts fresh
 * apps of each build in turn, so that a machine that gets busier or quieter during the run moves
 * both columns alike.
 * - BENCH_BEFORE_ROOT (required): a checkout whose apps are built (`dist/`), e.g. a worktree of
 *   the previous release; BENCH_BEFORE_COMMIT names it where git cannot.
 * - BENCH_ROUNDS (4) alternations; BENCH_SECONDS (8) per measured run, after BENCH_WARMUP_SECONDS
 *   (8) of the same load on the same processes; BENCH_CONNECTIONS (32) instant terminals;
 *   BENCH_STORE (sqlite, the embedded default; or postgres: databases of their own on the local
 *   server, as the test suites make them); BENCH_DELIVERY_RATE (100) async charges a second, paced,
 *   whose APPROVAL webhooks are timed from their outbox row to a receiver.
 * One child process per measurement: the apps' root is fixed when the testing library loads.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInstantTerminals, REPO_ROOT, Stack, type StoreKind } from '@tps/testing';
import { measurePipeline } from './async-pipeline';
import { measureDeliveryLatency } from './delivery-latency';
import { COMPARE_SECTION_TITLES } from './builds-compared-report';
import { describeMachine } from './lib/machine';
import { withSectionTitled } from './lib/markdown-section';
import { cpuTimeMs, ofPid } from './lib/resident-memory';
import { loadProject } from './sync-charge-comparison';

interface Figures {
  /** CPU each app spent from its launch until the stack was up (listening, terminals linked). */
  startApiCpuMs: number;
  startSimulatorCpuMs: number;
  syncPerSecond: number;
  syncApiCpuMs: number;
  syncSimulatorCpuMs: number;
  asyncPerSecond: number;
  asyncApiCpuMs: number;
  asyncSimulatorCpuMs: number;
  deliveryP50Ms: number;
  deliveryP99Ms: number;
}

const knob = (name: string, fallback: number): number => Number(process.env[name] ?? fallback);
const ROUNDS = knob('BENCH_ROUNDS', 4);
const SECONDS = knob('BENCH_SECONDS', 8);
const WARMUP = knob('BENCH_WARMUP_SECONDS', 8);
const CONNECTIONS = knob('BENCH_CONNECTIONS', 32);
const DELIVERY_RATE = knob('BENCH_DELIVERY_RATE', 100);
const CHILD = '--one-build';
const STORE = storeOf(process.env.BENCH_STORE);

function storeOf(value: string | undefined): StoreKind {
  if (value === undefined || value === '' || value === 'sqlite') return 'sqlite';
  if (value === 'postgres') return value;
  throw new Error(`BENCH_STORE: sqlite or postgres, not ${value}`);
}

/** In the child: one build (BENCH_APPS_ROOT), a sync run then an async closed loop. */
async function measureOne(): Promise<Figures> {
  const stack = await Stack.start({ store: STORE, apiEnv: { RATE_LIMIT_MAX: '1000000' } });
  const started = { api: ofPid(stack.api.pid, cpuTimeMs), simulator: ofPid(stack.simulator?.pid, cpuTimeMs) };
  let sync;
  let delivery;
  try {
    const serials = await createInstantTerminals(stack.client(), CONNECTIONS);
    await loadProject(stack, serials, WARMUP);
    sync = await loadProject(stack, serials, SECONDS);
    delivery = await measureDeliveryLatency(stack, serials, DELIVERY_RATE, SECONDS);
  } finally {
    await stack.stop();
  }
  const pipeline = await measurePipeline(CONNECTIONS, SECONDS, undefined, WARMUP, STORE);
  return {
    startApiCpuMs: started.api,
    startSimulatorCpuMs: started.simulator,
    syncPerSecond: sync.ok / SECONDS,
    syncApiCpuMs: sync.apiCpuMsPerCharge,
    syncSimulatorCpuMs: sync.simulatorCpuMsPerCharge,
    asyncPerSecond: pipeline.transactionsPerSecond,
    asyncApiCpuMs: pipeline.apiCpuMsPerTransaction,
    asyncSimulatorCpuMs: pipeline.simulatorCpuMsPerTransaction,
    deliveryP50Ms: delivery.approvalP50Ms,
    deliveryP99Ms: delivery.approvalP99Ms,
  };
}

function inChild(appsRoot: string): Figures {
  const child = spawnSync(process.execPath, [__filename, CHILD], {
    env: { ...process.env, BENCH_APPS_ROOT: appsRoot },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    timeout: (WARMUP + SECONDS) * 4_000 + 120_000,
  });
  const last = child.stdout.trim().split('\n').at(-1) ?? '';
  if (child.status !== 0) throw new Error(`measuring ${appsRoot} failed (${child.status}): ${last}`);
  return JSON.parse(last) as Figures;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

const ROWS: Array<[keyof Figures, string, number]> = [
  ['startApiCpuMs', 'API CPU to start (listening, terminals linked), ms', 0],
  ['startSimulatorCpuMs', 'simulator CPU to start (listening, terminals linked), ms', 0],
  ['syncPerSecond', 'sync charges/s', 0],
  ['syncApiCpuMs', 'API CPU per sync charge, ms', 2],
  ['syncSimulatorCpuMs', 'simulator CPU per sync charge, ms', 2],
  ['asyncPerSecond', 'async closed loop, transactions/s to APPROVAL', 0],
  ['asyncApiCpuMs', 'API CPU per async transaction, ms', 2],
  ['asyncSimulatorCpuMs', 'simulator CPU per async transaction, ms', 2],
  ['deliveryP50Ms', `APPROVAL stored → webhook received at ${DELIVERY_RATE} async charges/s, p50 ms`, 0],
  ['deliveryP99Ms', `APPROVAL stored → webhook received at ${DELIVERY_RATE} async charges/s, p99 ms`, 0],
];

function commitOf(root: string): string {
  try {
    return execFileSync('git', ['-C', root, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

function report(before: Figures[], after: Figures[], beforeRoot: string): string {
  const machine = describeMachine();
  const beforeName = process.env.BENCH_BEFORE_COMMIT || commitOf(beforeRoot);
  const cell = (runs: Figures[], key: keyof Figures, digits: number): string => {
    const values = runs.map((run) => run[key]);
    const fixed = (value: number): string => value.toFixed(digits);
    return `${fixed(median(values))} (${fixed(Math.min(...values))}–${fixed(Math.max(...values))})`;
  };
  const lines = [
    COMPARE_SECTION_TITLES[STORE],
    '',
    'Reproduce with `npm run bench:compare` (README, "Benchmarks"): the apps of an earlier build and',
    "of this checkout, taking turns round after round in one run, so that the machine's load moves",
    'both columns alike. Figures are the median of the rounds (min–max).',
    '',
    `- date: ${machine.date}; machine: ${machine.cores} cores, ${machine.cpu}, ${machine.memoryGiB} GiB; Node ${machine.node}`,
    `- builds: before ${beforeName}, after ${commitOf(REPO_ROOT)}; ${ROUNDS} rounds, each build in turn, fresh apps each time`,
    `- load: ${CONNECTIONS} instant terminals; ${WARMUP} s warm-up then ${SECONDS} s measured, sync charges, then ${SECONDS} s of async charges paced at ${DELIVERY_RATE}/s with their webhooks to a local receiver, then an async closed loop; store: ${STORE}`,
    '',
    `| figure (median of ${ROUNDS}, min–max) | before | after | after ÷ before |`,
    '| --- | --- | --- | --- |',
    ...ROWS.map(([key, label, digits]) => {
      const ratio = median(after.map((run) => run[key])) / median(before.map((run) => run[key]));
      return `| ${label} | ${cell(before, key, digits)} | ${cell(after, key, digits)} | ${ratio.toFixed(2)}× |`;
    }),
  ];
  return `${lines.join('\n')}\n`;
}

async function main(): Promise<void> {
  if (process.argv.includes(CHILD)) {
    process.stdout.write(`${JSON.stringify(await measureOne())}\n`);
    return;
  }
  const beforeRoot = process.env.BENCH_BEFORE_ROOT;
  if (!beforeRoot) throw new Error('BENCH_BEFORE_ROOT: the checkout of the earlier build (its dist/ built)');
  const before: Figures[] = [];
  const after: Figures[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    before.push(inChild(resolve(beforeRoot)));
    after.push(inChild(REPO_ROOT));
    process.stderr.write(`bench: round ${round} of ${ROUNDS} done\n`);
  }
  const section = report(before, after, beforeRoot);
  const file = join(REPO_ROOT, 'BENCHMARKS.md');
  writeFileSync(file, withSectionTitled(readFileSync(file, 'utf8'), COMPARE_SECTION_TITLES[STORE], section));
  process.stdout.write(section);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
