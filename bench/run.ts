/**
 * `npm run bench`: every benchmark in one run, written to BENCHMARKS.md. Knobs (environment):
 * BENCH_REPS (3), BENCH_SECONDS per load run (10), BENCH_CONNECTIONS (8), BENCH_STORED (100000).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '@tps/testing';
import { measurePipeline, type PipelineResult } from './async-pipeline';
import { measureFootprint, type Footprint } from './footprint';
import { describeMachine, type Machine } from './lib/machine';
import { formatSpread, spread } from './lib/stats';
import type { LoadResult } from './lib/load';
import { measureStartup } from './startup';
import { compareSyncCharge, type SyncChargeComparison } from './sync-charge-comparison';
import { measureWebhookDelivery, type WebhookDeliveryResult } from './webhook-delivery';

const REPS = Number(process.env.BENCH_REPS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);
const STORED = Number(process.env.BENCH_STORED ?? 100_000);
const PIPELINE_TERMINALS = Number(process.env.BENCH_PIPELINE_TERMINALS ?? 32);
/** A rate this machine sustains, to show the latency when the pipeline is not saturated. */
const SUSTAINED_RATE = Number(process.env.BENCH_SUSTAINED_RATE ?? 20);

interface Report {
  machine: Machine;
  startupMs: number[];
  sync: SyncChargeComparison;
  closedLoop: PipelineResult[];
  paced: PipelineResult[];
  sustained: PipelineResult[];
  footprint: Footprint;
  webhooks: WebhookDeliveryResult[];
}

const median = (values: number[]): number => spread(values).median;
const row = (cells: string[]): string => `| ${cells.join(' | ')} |`;
const verdict = (met: boolean): string => (met ? 'met' : '**missed**');

/** Non-2xx answers by status code, and connection errors: each names a problem of the run. */
function refusals(results: LoadResult[]): string {
  const byCode = new Map<string, number>();
  for (const result of results) {
    for (const [code, count] of Object.entries(result.statusCodes)) {
      if (!code.startsWith('2')) byCode.set(code, (byCode.get(code) ?? 0) + count);
    }
  }
  const errors = results.reduce((sum, r) => sum + r.errors, 0);
  const parts = [...byCode].map(([code, count]) => `${count}× ${code}`);
  if (errors > 0) parts.push(`${errors} errors`);
  return parts.length === 0 ? '0' : parts.join(', ');
}

function loadRows(name: string, results: LoadResult[]): string {
  return row([
    name,
    formatSpread(spread(results.map((r) => r.rps)), 0),
    formatSpread(spread(results.map((r) => r.p50))),
    formatSpread(spread(results.map((r) => r.p99))),
    refusals(results),
  ]);
}

function webhookRows(results: WebhookDeliveryResult[]): string[] {
  const figure = (pick: (r: WebhookDeliveryResult) => number, digits = 1): string =>
    formatSpread(spread(results.map(pick)), digits);
  const backlog = results[0]?.backlog ?? 0;
  return [
    '## Webhook delivery (the outbox)',
    '',
    `A backlog of ${backlog} due deliveries drained to a local receiver that answers 200 at once;`,
    'events of live charges on the two seeded terminals, from their outbox row to the receiver;',
    `the API while ${backlog} deliveries wait five minutes for their retry (one timer for all).`,
    '',
    row(['figure', 'value']),
    row(['---', '---']),
    row(['deliveries/s, draining a due backlog', figure((r) => r.deliveriesPerSecond, 0)]),
    row(['event stored → webhook received, p50 ms', figure((r) => r.storedToReceivedP50)]),
    row(['event stored → webhook received, p99 ms', figure((r) => r.storedToReceivedP99)]),
    row(['API resident memory, no backlog, MiB', figure((r) => r.idleApiMiB)]),
    row([`API resident memory, ${backlog} waiting, MiB`, figure((r) => r.waitingApiMiB)]),
    row([`API CPU, ${backlog} waiting, % of one core`, figure((r) => r.waitingCpuPercent)]),
    row([`API start-up resuming ${backlog} pending, ms`, figure((r) => r.resumeStartMs, 0)]),
    '',
  ];
}

function pipelineRows(runs: PipelineResult[][]): string[] {
  const figure = (name: string, pick: (r: PipelineResult) => number, digits = 1): string =>
    row([name, ...runs.map((results) => formatSpread(spread(results.map(pick)), digits))]);
  return [
    figure('transactions started/s', (r) => r.startedPerSecond, 0),
    figure('transactions carried to their APPROVAL webhook/s', (r) => r.transactionsPerSecond, 0),
    figure('APPROVAL stored → received, p50 ms', (r) => r.approvalP50),
    figure('APPROVAL stored → received, p99 ms', (r) => r.approvalP99),
    figure('API CPU per transaction, ms', (r) => r.apiCpuMsPerTransaction),
    figure('simulator CPU per transaction, ms', (r) => r.simulatorCpuMsPerTransaction),
    row([
      'refused requests · undelivered webhooks (all runs)',
      ...runs.map(
        (results) =>
          `${results.reduce((n, r) => n + r.failedRequests, 0)} · ${results.reduce((n, r) => n + r.undeliveredWebhooks, 0)}`,
      ),
    ]),
    row([
      'webhooks received (all runs)',
      ...runs.map((results) => String(results.reduce((n, r) => n + r.webhooks, 0))),
    ]),
  ];
}

function render(report: Report): string {
  const { machine, sync, footprint } = report;
  const projectRps = median(sync.project.map((r) => r.rps));
  const prismRps = median(sync.prism.map((r) => r.rps));
  const ceilingRps = median(sync.ceiling.map((r) => r.rps));
  const closedTps = report.closedLoop.map((r) => r.transactionsPerSecond);
  const pacedP99 = report.paced.map((r) => r.approvalP99);
  const undelivered = report.closedLoop.reduce((sum, r) => sum + r.failedRequests + r.undeliveredWebhooks, 0);
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
    `next charge when the last one's APPROVAL arrives. ${PIPELINE_TERMINALS} terminals (pace instant) in`,
    'the closed loop; the paced runs start charges at a fixed rate over as many terminals.',
    'APPROVAL stored → received runs from the outbox row (written with the event) to the receiver.',
    '',
    row(['figure', 'closed loop', `paced at 100 tx/s`, `paced at ${SUSTAINED_RATE} tx/s`]),
    row(['---', '---', '---', '---']),
    ...pipelineRows([report.closedLoop, report.paced, report.sustained]),
    '',
    ...webhookRows(report.webhooks),
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
    // Written by hand from a profile, kept across runs: bench/analysis.md.
    readFileSync(join(REPO_ROOT, 'bench/analysis.md'), 'utf8'),
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
  for (let i = 0; i < REPS; i++) closedLoop.push(await measurePipeline(PIPELINE_TERMINALS, SECONDS));
  log('async pipeline at 100 transactions/s');
  const paced: PipelineResult[] = [];
  for (let i = 0; i < REPS; i++) paced.push(await measurePipeline(PIPELINE_TERMINALS, SECONDS, 100));
  log(`async pipeline at ${SUSTAINED_RATE} transactions/s`);
  const sustained: PipelineResult[] = [];
  for (let i = 0; i < REPS; i++) {
    sustained.push(await measurePipeline(PIPELINE_TERMINALS, SECONDS, SUSTAINED_RATE));
  }
  log(`footprint at ${STORED} stored transactions`);
  const footprint = await measureFootprint(STORED, REPS);
  log('webhook delivery: backlog drain, stored → received, 10,000 waiting');
  const webhooks: WebhookDeliveryResult[] = [];
  for (let i = 0; i < REPS; i++) webhooks.push(await measureWebhookDelivery());
  const markdown = render({ machine, startupMs, sync, closedLoop, paced, sustained, footprint, webhooks });
  writeFileSync(join(REPO_ROOT, 'BENCHMARKS.md'), markdown);
  process.stdout.write(markdown);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
