/**
 * `npm run bench`: every benchmark in one run, written to BENCHMARKS.md. Knobs (environment):
 * BENCH_REPS (3), BENCH_SECONDS per load run (10), BENCH_CONNECTIONS (8), BENCH_STORED (100000).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '@tps/testing';
import { measurePipeline, type PipelineResult } from './async-pipeline';
import { measureFootprint, type Footprint } from './footprint';
import { describeMachine, type Machine } from './lib/machine';
import { formatSpread, spread } from './lib/stats';
import type { LoadResult } from './lib/load';
import { measureStartup } from './startup';
import { compareSyncCharge, type SyncChargeComparison } from './sync-charge-comparison';

const REPS = Number(process.env.BENCH_REPS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);
const STORED = Number(process.env.BENCH_STORED ?? 100_000);

interface Report {
  machine: Machine;
  startupMs: number[];
  sync: SyncChargeComparison;
  closedLoop: PipelineResult[];
  paced: PipelineResult[];
  footprint: Footprint;
}

const median = (values: number[]): number => spread(values).median;
const row = (cells: string[]): string => `| ${cells.join(' | ')} |`;
const verdict = (met: boolean): string => (met ? 'met' : '**missed**');

function loadRows(name: string, results: LoadResult[]): string {
  return row([
    name,
    formatSpread(spread(results.map((r) => r.rps)), 0),
    formatSpread(spread(results.map((r) => r.p50))),
    formatSpread(spread(results.map((r) => r.p99))),
    String(results.reduce((sum, r) => sum + r.non2xx + r.errors, 0)),
  ]);
}

function render(report: Report): string {
  const { machine, sync, footprint } = report;
  const projectRps = median(sync.project.map((r) => r.rps));
  const prismRps = median(sync.prism.map((r) => r.rps));
  const ceilingRps = median(sync.ceiling.map((r) => r.rps));
  const closedTps = report.closedLoop.map((r) => r.transactionsPerSecond);
  const pacedP99 = report.paced.map((r) => r.approvalP99);
  const undelivered = report.closedLoop.reduce((sum, r) => sum + r.failedRequests, 0);
  return [
    '# Benchmarks',
    '',
    'Reproduce with `npm run bench` (it builds first). Every figure is the median over ' +
      `${REPS} repetitions, with min and max.`,
    '',
    `- date: ${machine.date}`,
    `- machine: ${machine.cores} cores, ${machine.cpu}, ${machine.memoryGiB} GiB`,
    `- Node: ${machine.node}`,
    `- load: autocannon, ${sync.connections} connections, ${sync.durationSeconds} s per run`,
    '',
    '## Sync charge: the project against its ceiling and against Prism',
    '',
    'The ceiling is a bare Node HTTP server that parses the same JSON body and answers a canned',
    "Authorization response. Prism (`@stoplight/prism-cli`) mocks the project's own `/openapi.json`.",
    'The project does the real work: signature check, storage, the round trip to a simulated',
    `terminal (pace instant), one connection per terminal over ${sync.connections} terminals.`,
    '',
    row(['server', 'requests/s', 'p50 ms', 'p99 ms', 'non-2xx or errors']),
    row(['---', '---', '---', '---', '---']),
    loadRows('ceiling (bare Node)', sync.ceiling),
    loadRows('Prism mock', sync.prism),
    loadRows('project', sync.project),
    '',
    `project/Prism: ${(projectRps / prismRps).toFixed(2)}× · project/ceiling: ${(projectRps / ceilingRps).toFixed(2)}×`,
    '',
    '## Async pipeline',
    '',
    'From the request to the final webhook received by a local receiver; each terminal starts its',
    "next charge when the last one's APPROVAL arrives.",
    '',
    row(['figure', 'value']),
    row(['---', '---']),
    row(['transactions/s, closed loop', formatSpread(spread(closedTps), 0)]),
    row(['refused requests during the closed loop', String(undelivered)]),
    row([
      'APPROVAL stored → received, p50 ms, at 100 tx/s',
      formatSpread(spread(report.paced.map((r) => r.approvalP50))),
    ]),
    row(['APPROVAL stored → received, p99 ms, at 100 tx/s', formatSpread(spread(pacedP99))]),
    '',
    '## Cost',
    '',
    row(['figure', 'value']),
    row(['---', '---']),
    row([
      '`npm start` until both apps answer and terminals link, ms',
      formatSpread(spread(report.startupMs), 0),
    ]),
    row(['API resident memory idle, MiB', formatSpread(spread(footprint.idleApiMiB))]),
    row(['simulator resident memory idle, MiB', formatSpread(spread(footprint.idleSimulatorMiB))]),
    row([
      `API resident memory at ${footprint.stored} transactions, MiB`,
      formatSpread(spread(footprint.loadedApiMiB)),
    ]),
    row([
      `simulator resident memory at ${footprint.stored} transactions, MiB`,
      formatSpread(spread(footprint.loadedSimulatorMiB)),
    ]),
    row([
      `online search at ${footprint.stored} transactions, p50 ms`,
      formatSpread(spread(footprint.searchP50)),
    ]),
    row([
      `online search at ${footprint.stored} transactions, p99 ms`,
      formatSpread(spread(footprint.searchP99)),
    ]),
    '',
    '## Targets',
    '',
    row(['target', 'measured (median)', 'verdict']),
    row(['---', '---', '---']),
    row([
      'sync charge ≥ 1.0× Prism',
      `${(projectRps / prismRps).toFixed(2)}×`,
      verdict(projectRps >= prismRps),
    ]),
    row([
      '≥ 300 async transactions/s, every webhook delivered',
      `${median(closedTps).toFixed(0)}/s`,
      verdict(median(closedTps) >= 300 && undelivered === 0),
    ]),
    row([
      'p99 APPROVAL stored → received < 50 ms at 100 tx/s',
      `${median(pacedP99).toFixed(1)} ms`,
      verdict(median(pacedP99) < 50),
    ]),
    row([
      'start-up < 5 s',
      `${median(report.startupMs).toFixed(0)} ms`,
      verdict(median(report.startupMs) < 5000),
    ]),
    '',
  ].join('\n');
}

async function main(): Promise<void> {
  const machine = describeMachine();
  const log = (what: string): void => void process.stdout.write(`bench: ${what}\n`);
  log('start-up');
  const startupMs: number[] = [];
  for (let i = 0; i < REPS; i++) startupMs.push(await measureStartup());
  log('sync charge: ceiling, Prism, project');
  const sync = await compareSyncCharge(REPS, CONNECTIONS, SECONDS);
  log('async pipeline, closed loop');
  const closedLoop: PipelineResult[] = [];
  for (let i = 0; i < REPS; i++) closedLoop.push(await measurePipeline(CONNECTIONS, SECONDS));
  log('async pipeline at 100 transactions/s');
  const paced: PipelineResult[] = [];
  for (let i = 0; i < REPS; i++) paced.push(await measurePipeline(CONNECTIONS * 4, SECONDS, 100));
  log(`footprint at ${STORED} stored transactions`);
  const footprint = await measureFootprint(STORED, REPS);
  const markdown = render({ machine, startupMs, sync, closedLoop, paced, footprint });
  writeFileSync(join(REPO_ROOT, 'BENCHMARKS.md'), markdown);
  process.stdout.write(markdown);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
