/** BENCHMARKS.md from one run's report (and, given, an earlier run's summary for a before/after). */
import type { PipelinePhase, PipelineResult } from './async-pipeline';
import type { LoadResult } from './lib/load';
import type { LoadMemory } from './lib/resident-memory';
import { formatSpread, spread } from './lib/stats';
import { beforeAfter, show, summarize, targets, verdict, type Report, type Summary } from './lib/summary';
import type { WebhookDeliveryResult } from './webhook-delivery';

const row = (cells: string[]): string => `| ${cells.join(' | ')} |`;
const figures = (values: number[], digits = 1): string => formatSpread(spread(values), digits);

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

function loadRow(name: string, results: LoadResult[]): string {
  return row([
    name,
    figures(
      results.map((r) => r.rps),
      0,
    ),
    figures(results.map((r) => r.p50)),
    figures(results.map((r) => r.p99)),
    refusals(results),
  ]);
}

function syncSection(report: Report): string[] {
  const { sync } = report;
  const s = summarize(report);
  const project = sync.project;
  return [
    '## Sync charge: the project against its ceiling and against Prism',
    '',
    'The ceiling is a bare Node HTTP server that parses the same JSON body and answers a canned',
    "Authorization response. Prism (`@stoplight/prism-cli`) mocks the project's own `/openapi.json`.",
    'The project does the real work: signature check, storage, the round trip to a simulated',
    `terminal (pace instant), one connection per terminal over ${sync.connections} terminals.`,
    `Each server first runs ${sync.warmupSeconds} s of the same load (warm-up, below), then`,
    `${project.length} measured runs of ${sync.durationSeconds} s on the same process.`,
    '',
    row(['server', 'requests/s', 'p50 ms', 'p99 ms', 'non-2xx or errors']),
    row(['---', '---', '---', '---', '---']),
    loadRow('ceiling (bare Node)', sync.ceiling),
    loadRow('Prism mock', sync.prism),
    loadRow('project', project),
    '',
    `project/Prism: ${show(s.syncToPrism, 2)}× · project/ceiling: ${show(
      s.syncRps !== null && s.ceilingRps !== null ? s.syncRps / s.ceilingRps : null,
      2,
    )}×`,
    '',
    'CPU time (user + system, from /proc) each app spent per 2xx sync charge in the measured runs:',
    '',
    row(['figure', 'value']),
    row(['---', '---']),
    row([
      'API CPU per sync charge, ms',
      figures(
        project.map((r) => r.apiCpuMsPerCharge),
        2,
      ),
    ]),
    row([
      'simulator CPU per sync charge, ms',
      figures(
        project.map((r) => r.simulatorCpuMsPerCharge),
        2,
      ),
    ]),
    '',
  ];
}

function warmupSection(report: Report): string[] {
  const { sync } = report;
  const rate = (r: LoadResult | undefined): string => show(r?.rps, 0);
  const cpu = (n: number | undefined): string => show(n, 2);
  const median = (values: number[]): number => spread(values).median;
  const project = sync.warmup.project;
  const pipeline = (name: string, results: PipelineResult[]): string => {
    const warm = results.map((r) => r.warmup).filter((w): w is PipelinePhase => w !== undefined);
    return row([
      name,
      show(median(warm.map((w) => w.transactionsPerSecond)), 0),
      show(median(results.map((r) => r.transactionsPerSecond)), 0),
      cpu(median(warm.map((w) => w.apiCpuMsPerTransaction))),
      cpu(median(results.map((r) => r.apiCpuMsPerTransaction))),
      cpu(median(warm.map((w) => w.simulatorCpuMsPerTransaction))),
      cpu(median(results.map((r) => r.simulatorCpuMsPerTransaction))),
    ]);
  };
  const noCpu = ['–', '–', '–', '–'];
  return [
    '## Warm-up',
    '',
    `Every load run starts with ${sync.warmupSeconds} s of the same load on the same processes, so that`,
    'JIT compilation and first-use caches stay out of the measured figures. The warm-up as measured',
    '(one per server for the sync charge; one per repetition, median, for the async pipeline,',
    'whose every repetition starts fresh apps) against the measured runs (median):',
    '',
    row([
      'run',
      'warm-up requests or tx/s',
      'measured',
      'API CPU ms/tx, warm-up',
      'measured',
      'simulator CPU ms/tx, warm-up',
      'measured',
    ]),
    row(['---', '---', '---', '---', '---', '---', '---']),
    row([
      'ceiling (bare Node)',
      rate(sync.warmup.ceiling),
      show(median(sync.ceiling.map((r) => r.rps)), 0),
      ...noCpu,
    ]),
    row(['Prism mock', rate(sync.warmup.prism), show(median(sync.prism.map((r) => r.rps)), 0), ...noCpu]),
    row([
      'project, sync charge',
      rate(project),
      show(median(sync.project.map((r) => r.rps)), 0),
      cpu(project?.apiCpuMsPerCharge),
      cpu(median(sync.project.map((r) => r.apiCpuMsPerCharge))),
      cpu(project?.simulatorCpuMsPerCharge),
      cpu(median(sync.project.map((r) => r.simulatorCpuMsPerCharge))),
    ]),
    pipeline('async, closed loop', report.closedLoop),
    pipeline('async, paced at 100 tx/s', report.paced),
    pipeline(`async, paced at ${String(report.knobs.BENCH_SUSTAINED_RATE)} tx/s`, report.sustained),
    '',
  ];
}

function pipelineRows(runs: PipelineResult[][]): string[] {
  const figure = (name: string, pick: (r: PipelineResult) => number, digits = 1): string =>
    row([name, ...runs.map((results) => figures(results.map(pick), digits))]);
  return [
    figure('transactions started/s', (r) => r.startedPerSecond, 0),
    figure('transactions carried to their APPROVAL webhook/s', (r) => r.transactionsPerSecond, 0),
    figure('APPROVAL stored → received, p50 ms', (r) => r.approvalP50),
    figure('APPROVAL stored → received, p99 ms', (r) => r.approvalP99),
    figure('API CPU per transaction, ms', (r) => r.apiCpuMsPerTransaction, 2),
    figure('simulator CPU per transaction, ms', (r) => r.simulatorCpuMsPerTransaction, 2),
    figure(
      'load generator CPU per transaction, ms (the benchmark process)',
      (r) => r.loadGeneratorCpuMsPerTransaction ?? NaN,
      2,
    ),
    row([
      'refused requests · undelivered webhooks (all runs)',
      ...runs.map(
        (results) =>
          `${results.reduce((n, r) => n + r.failedRequests, 0)} · ${results.reduce((n, r) => n + r.undeliveredWebhooks, 0)}`,
      ),
    ]),
    row([
      'webhooks received (all runs, warm-up included)',
      ...runs.map((results) => String(results.reduce((n, r) => n + r.webhooks, 0))),
    ]),
  ];
}

function pipelineSection(report: Report): string[] {
  const terminals = String(report.knobs.BENCH_PIPELINE_TERMINALS);
  const rate = String(report.knobs.BENCH_SUSTAINED_RATE);
  return [
    '## Async pipeline',
    '',
    'From the request to the final webhook received by a local receiver; each terminal starts its',
    `next charge when the last one's APPROVAL arrives. ${terminals} terminals (pace instant) in`,
    'the closed loop; the paced runs start charges at a fixed rate over as many terminals.',
    'APPROVAL stored → received runs from the outbox row (written with the event) to the receiver.',
    `Each repetition starts fresh apps and warms them up for ${String(report.knobs.BENCH_WARMUP_SECONDS)} s with the same load;`,
    'the figures are those of the measured phase that follows.',
    '',
    row(['figure', 'closed loop', 'paced at 100 tx/s', `paced at ${rate} tx/s`]),
    row(['---', '---', '---', '---']),
    ...pipelineRows([report.closedLoop, report.paced, report.sustained]),
    '',
  ];
}

function sqlSection(report: Report): string[] {
  const { sql } = report;
  const missing =
    [sql.sync.api, sql.sync.simulator, sql.async.api, sql.async.simulator].some(
      (n) => n === null || !Number.isFinite(n),
    ) && `n/a: ${sql.note ?? 'an app gave no count.'}`;
  return [
    '## SQL statements per transaction',
    '',
    'A run of its own (counting costs CPU, so it stays out of the figures above): both apps started',
    'with their statement counter (SQL_STATEMENT_COUNT_FILE), the counters read, then a closed loop over',
    `${sql.terminals} terminals (as in the load runs: group commit shares a transaction among the`,
    'writes that queue together, so the figure depends on that), every terminal event acknowledged',
    'and every webhook delivered, the counters read again. Every statement SQLite runs on the',
    "app's connection counts, BEGIN and COMMIT included.",
    ...(missing ? ['', missing] : []),
    '',
    row(['transaction', 'transactions counted', 'API statements/tx', 'simulator statements/tx']),
    row(['---', '---', '---', '---']),
    row(['sync charge', String(sql.sync.transactions), show(sql.sync.api), show(sql.sync.simulator)]),
    row([
      'async transaction (to its APPROVAL webhook)',
      String(sql.async.transactions),
      show(sql.async.api),
      show(sql.async.simulator),
    ]),
    '',
  ];
}

function webhookSection(results: WebhookDeliveryResult[]): string[] {
  const figure = (pick: (r: WebhookDeliveryResult) => number, digits = 1): string =>
    figures(results.map(pick), digits);
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

/** `idle → loaded (ratio×)`, MiB. */
const idleToLoaded = (idle: number, loaded: number): string =>
  `${show(idle)} → ${show(loaded)} (${show(loaded / idle, 2)}×)`;

function memorySection(report: Report): string[] {
  const { footprint } = report;
  const loadRow = (name: string, m: LoadMemory): string =>
    row([
      name,
      String(m.transactions),
      idleToLoaded(m.idleApiMiB, m.loadedApiMiB),
      idleToLoaded(m.idleSimulatorMiB, m.loadedSimulatorMiB),
    ]);
  const idleApi = spread(footprint.idleApiMiB).median;
  const idleSimulator = spread(footprint.idleSimulatorMiB).median;
  const storedApi = spread(footprint.loadedApiMiB).median;
  const storedSimulator = spread(footprint.loadedSimulatorMiB).median;
  return [
    '## Cost: start-up and memory',
    '',
    row(['figure', 'value']),
    row(['---', '---']),
    row(['`npm start` until both apps answer and terminals link, ms', figures(report.startupMs, 0)]),
    row([`online search at ${footprint.stored} transactions, p50 ms`, figures(footprint.searchP50)]),
    row([`online search at ${footprint.stored} transactions, p99 ms`, figures(footprint.searchP99)]),
    '',
    `Resident memory (RSS, MiB) of both apps, idle and with transactions. **With ${footprint.stored}`,
    'stored** (the verdict of the memory target): the apps idle, then stopped, their SQLite files',
    `given ${footprint.stored} copies of a real transaction, restarted, and sampled after`,
    `${footprint.searchP50.length * 200} online searches. **After the load runs**: the same processes`,
    'sampled idle (terminals linked, before any load) and a second after the last measured run, with',
    'the transactions they carried (warm-up included). A second after a load, V8 has not yet given',
    'back the garbage of the last seconds; it does once the process has been quiet for a while.',
    ...chargedParagraph(report),
    '',
    row(['measurement', 'transactions', 'API idle → loaded, MiB', 'simulator idle → loaded, MiB']),
    row(['---', '---', '---', '---']),
    row([
      `with ${footprint.stored} stored (median of ${footprint.idleApiMiB.length} samples)`,
      String(footprint.stored),
      idleToLoaded(idleApi, storedApi),
      idleToLoaded(idleSimulator, storedSimulator),
    ]),
    loadRow('after the sync comparison', report.sync.memory),
    ...report.closedLoop.map((r, i) => loadRow(`after async closed loop, repetition ${i + 1}`, r.memory)),
    ...chargedRows(report),
    '',
  ];
}

/** How the memory after the charges was measured; nothing for a run from before it was. */
function chargedParagraph(report: Report): string[] {
  const charged = report.memoryAfterCharges;
  if (charged === undefined) return [];
  return [
    `**After ${charged.charges} sync charges** (the memory target read as written, its verdict): fresh`,
    `processes sampled idle, then after carrying that many charges over ${report.sync.connections}`,
    'terminals; each time a second after the last request, and again **after a full garbage',
    "collection** asked through the app's inspector (on loopback), which leaves what the process",
    'keeps.',
  ];
}

function chargedRows(report: Report): string[] {
  const charged = report.memoryAfterCharges;
  if (charged === undefined) return [];
  return [
    row([
      `after ${charged.charges} sync charges, a second after`,
      String(charged.charges),
      idleToLoaded(charged.idle.api, charged.loaded.api),
      idleToLoaded(charged.idle.simulator, charged.loaded.simulator),
    ]),
    row([
      `after ${charged.charges} sync charges, after a full GC`,
      String(charged.charges),
      idleToLoaded(charged.idleCollected.api, charged.loadedCollected.api),
      idleToLoaded(charged.idleCollected.simulator, charged.loadedCollected.simulator),
    ]),
  ];
}

function targetSection(report: Report): string[] {
  return [
    '## Targets',
    '',
    'The speed and memory targets, measured in this run after warm-up. The memory target is judged two ways: with the',
    'stored transactions, and after carrying them (after a full GC); see above.',
    '',
    row(['target', 'measured (median)', 'verdict']),
    row(['---', '---', '---']),
    ...targets(summarize(report)).map((t) => row([t.target, t.measured, verdict(t.met)])),
    '',
  ];
}

/** An earlier run, as its JSON gives it (BENCH_BASELINE). */
export interface Baseline {
  summary: Summary;
  knobs?: Record<string, number | string>;
}

function beforeAfterSection(report: Report, baseline: Baseline | undefined): string[] {
  if (baseline === undefined) return [];
  const differ = Object.entries(report.knobs)
    .filter(([name, value]) => baseline.knobs !== undefined && baseline.knobs[name] !== value)
    .map(([name, value]) => `${name} ${String(baseline.knobs?.[name] ?? 'unset')} then ${String(value)}`);
  return [
    '## Before / after',
    '',
    'The same benchmark code on this machine, once with the apps of an earlier checkout',
    '(BENCH_APPS_ROOT, its results given as BENCH_BASELINE) and once with these. n/a: not measured',
    '(an app without the statement counter).',
    ...(differ.length > 0 ? ['', `The two runs' knobs differ: ${differ.join(', ')}.`] : []),
    '',
    ...beforeAfter(baseline.summary, summarize(report)),
    '',
  ];
}

/** The whole of BENCHMARKS.md but the hand-written analysis that run.ts appends. */
export function render(report: Report, baseline?: Baseline): string {
  const { machine, knobs } = report;
  const apps =
    report.apps.commit === null ? report.apps.root : `${report.apps.root} at ${report.apps.commit}`;
  return [
    '# Benchmarks',
    '',
    'Reproduce with `npm run bench` (it builds first). Every figure is the median over ' +
      `${String(knobs.BENCH_REPS)} repetitions, with min and max.`,
    '',
    `- date: ${machine.date}`,
    `- machine: ${machine.cores} cores, ${machine.cpu}, ${machine.memoryGiB} GiB`,
    `- Node: ${machine.node}`,
    `- apps: ${apps}`,
    `- load: autocannon, ${report.sync.connections} connections, ${String(knobs.BENCH_WARMUP_SECONDS)} s warm-up, then ` +
      `${report.sync.durationSeconds} s per measured run`,
    ...(report.partSeconds === undefined
      ? []
      : [
          `- run: ${(Object.values(report.partSeconds).reduce((sum, s) => sum + s, 0) / 60).toFixed(1)} min ` +
            'after the build',
        ]),
    '',
    ...syncSection(report),
    ...pipelineSection(report),
    ...warmupSection(report),
    ...sqlSection(report),
    ...webhookSection(report.webhooks),
    ...memorySection(report),
    ...targetSection(report),
    ...beforeAfterSection(report, baseline),
  ].join('\n');
}
