/**
 * `npm run bench`: every benchmark in one run, written to BENCHMARKS.md, its raw results as JSON.
 *
 * Knobs (environment), with their defaults:
 * - BENCH_REPS (3) repetitions of each measurement; BENCH_SECONDS (10) per measured load run;
 *   BENCH_WARMUP_SECONDS (15) of the same load on the same processes before each load run (0: none);
 * - BENCH_CONNECTIONS (32) sync charge connections, one per terminal; BENCH_PIPELINE_TERMINALS (32)
 *   for the async pipeline; BENCH_SUSTAINED_RATE (20) tx/s for the third pipeline column;
 * - BENCH_SQL_TRANSACTIONS (640) of each kind counted for SQL statements per transaction;
 * - BENCH_STORED (100000) transactions stored for the memory footprint; BENCH_BACKLOG (10000)
 *   webhook deliveries in the outbox benchmark;
 * - BENCH_MEMORY_CHARGES (100000) sync charges carried before the memory is sampled again;
 * - BENCH_APPS_ROOT (this checkout): the checkout whose built apps (dist/) are timed;
 *   BENCH_APPS_COMMIT names their commit in the report where git cannot (a `git archive` copy);
 * - BENCH_OUT (BENCHMARKS.md) the markdown; BENCH_JSON (bench/last-run.json) the raw results;
 * - BENCH_BASELINE: the JSON of an earlier run (e.g. with BENCH_APPS_ROOT on an older commit) for a
 *   before/after table;
 * - BENCH_FROM_JSON: render the markdown from that JSON only, without measuring anything.
 *
 * Time with the defaults on a 2-core machine: about 18 minutes, the build (~40 s) included.
 * start-up 3 × ~3 s; sync charge ~2.5 min (ceiling, Prism and the project each 15 s warm-up + 3 × 10 s,
 * plus ~15 s to start Prism and the apps and link 32 terminals); SQL statements ~40 s (640 sync and
 * 640 async transactions, counting on); async pipeline 9 runs × ~32 s (start, link 32 terminals,
 * 15 s warm-up, 10 s measured, drain, stop) ≈ 5 min; footprint ~1.5 min (100,000 rows cloned into
 * both files, apps restarted, 3 × 200 searches); webhook delivery 3 × ~45 s ≈ 2.5 min; memory after 100,000 charges
 * ~4 min (about 200 s of load at 500 charges/s). Each part's time is in
 * the JSON (partSeconds) and in the log.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { format, resolveConfig } from 'prettier';
import { APPS_ROOT, REPO_ROOT } from '@tps/testing';
import { measurePipeline, type PipelineResult } from './async-pipeline';
import { measureFootprint } from './footprint';
import { measureMemoryAfterCharges } from './memory-after-charges';
import { describeMachine } from './lib/machine';
import { summarize, type Report, type Summary } from './lib/summary';
import { render } from './report';
import { NOT_COUNTED, measureSqlStatements, type SqlStatements } from './sql-statements';
import { measureStartup } from './startup';
import { SECTION_TITLE as STORES_SECTION_TITLE } from './store-report';
import { CLUSTER_SECTION_TITLE } from './cluster-report';
import { BYTES_SECTION_TITLE } from './bytes-report';
import { COMPARE_SECTION_TITLES } from './builds-compared-report';
import { sectionOf, withSectionTitled } from './lib/markdown-section';
import { compareSyncCharge } from './sync-charge-comparison';
import { measureWebhookDelivery, type WebhookDeliveryResult } from './webhook-delivery';

const knob = (name: string, fallback: number): number => {
  const value = process.env[name];
  return value === undefined || value === '' ? fallback : Number(value);
};

const KNOBS = {
  BENCH_REPS: knob('BENCH_REPS', 3),
  BENCH_SECONDS: knob('BENCH_SECONDS', 10),
  BENCH_WARMUP_SECONDS: knob('BENCH_WARMUP_SECONDS', 15),
  BENCH_CONNECTIONS: knob('BENCH_CONNECTIONS', 32),
  BENCH_PIPELINE_TERMINALS: knob('BENCH_PIPELINE_TERMINALS', 32),
  /** A rate this machine sustains, to show the latency when the pipeline is not saturated. */
  BENCH_SUSTAINED_RATE: knob('BENCH_SUSTAINED_RATE', 20),
  BENCH_SQL_TRANSACTIONS: knob('BENCH_SQL_TRANSACTIONS', 640),
  BENCH_STORED: knob('BENCH_STORED', 100_000),
  BENCH_BACKLOG: knob('BENCH_BACKLOG', 10_000),
  BENCH_MEMORY_CHARGES: knob('BENCH_MEMORY_CHARGES', 100_000),
};

/** Written by hand from two `npm run bench:stores` runs (BENCHMARKS.md says how). */
const ONE_STATEMENT_WRITES_TITLE = '## Two stores: PostgreSQL writes of one statement, before and after';
const OUT = resolve(process.env.BENCH_OUT || join(REPO_ROOT, 'BENCHMARKS.md'));
const JSON_FILE = resolve(process.env.BENCH_JSON || join(REPO_ROOT, 'bench/last-run.json'));

/** What a run writes as JSON: the summary a later run compares with, and every raw figure. */
interface RunFile {
  summary: Summary;
  report: Report;
}

/** The apps' commit, with a mark when their sources differ from it; null outside a git checkout. */
function commitOf(root: string): string | null {
  try {
    const git = (...args: string[]): string =>
      execFileSync('git', ['-C', root, ...args], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      }).trim();
    const commit = git('rev-parse', '--short', 'HEAD');
    const dirty = git('status', '--porcelain', '--untracked-files=no', '--', 'apps', 'libs', 'scripts');
    return dirty === '' ? commit : `${commit} + uncommitted changes`;
  } catch {
    return null;
  }
}

function readRunFile(file: string): RunFile {
  return JSON.parse(readFileSync(file, 'utf8')) as RunFile;
}

async function measure(): Promise<Report> {
  const { BENCH_REPS: reps, BENCH_SECONDS: seconds, BENCH_WARMUP_SECONDS: warmup } = KNOBS;
  const terminals = KNOBS.BENCH_PIPELINE_TERMINALS;
  const log = (what: string): void =>
    void process.stdout.write(`bench: ${new Date().toISOString()} ${what}\n`);
  const repeat = async <T>(run: () => Promise<T>): Promise<T[]> => {
    const results: T[] = [];
    for (let i = 0; i < reps; i++) results.push(await run());
    return results;
  };
  const partSeconds: Record<string, number> = {};
  const part = async <T>(name: string, run: () => Promise<T>): Promise<T> => {
    log(name);
    const started = Date.now();
    const result = await run();
    partSeconds[name] = Math.round((Date.now() - started) / 1000);
    return result;
  };
  const machine = describeMachine();
  const apps = {
    root: process.env.BENCH_APPS_ROOT ? APPS_ROOT : 'this checkout',
    commit: process.env.BENCH_APPS_COMMIT || commitOf(APPS_ROOT),
  };
  log(`apps: ${apps.root} at ${apps.commit ?? 'unknown commit'}`);
  const startupMs = await part('start-up', () => repeat(() => measureStartup()));
  const sync = await part('sync charge: ceiling, Prism, project', () =>
    compareSyncCharge(reps, KNOBS.BENCH_CONNECTIONS, seconds, warmup),
  );
  const sql = await part('SQL statements per transaction', () =>
    // Counting depends on a hook in the apps: when it fails, the rest of the run still counts.
    measureSqlStatements(terminals, KNOBS.BENCH_SQL_TRANSACTIONS).catch((error: unknown): SqlStatements => {
      const message = error instanceof Error ? error.message : String(error);
      log(`SQL statements not counted: ${message}`);
      return { terminals, sync: NOT_COUNTED, async: NOT_COUNTED, note: `not counted: ${message}` };
    }),
  );
  const closedLoop: PipelineResult[] = await part('async pipeline, closed loop', () =>
    repeat(() => measurePipeline(terminals, seconds, undefined, warmup)),
  );
  const paced = await part('async pipeline at 100 transactions/s', () =>
    repeat(() => measurePipeline(terminals, seconds, 100, warmup)),
  );
  const sustained = await part(`async pipeline at ${KNOBS.BENCH_SUSTAINED_RATE} transactions/s`, () =>
    repeat(() => measurePipeline(terminals, seconds, KNOBS.BENCH_SUSTAINED_RATE, warmup)),
  );
  const footprint = await part(`footprint at ${KNOBS.BENCH_STORED} stored transactions`, () =>
    measureFootprint(KNOBS.BENCH_STORED, reps),
  );
  const webhooks: WebhookDeliveryResult[] = await part(
    `webhook delivery: backlog drain, stored → received, ${KNOBS.BENCH_BACKLOG} waiting`,
    () => repeat(() => measureWebhookDelivery(KNOBS.BENCH_BACKLOG)),
  );
  const memoryAfterCharges = await part(`memory after ${KNOBS.BENCH_MEMORY_CHARGES} sync charges`, () =>
    measureMemoryAfterCharges(KNOBS.BENCH_MEMORY_CHARGES, KNOBS.BENCH_CONNECTIONS),
  );
  log(`done: ${JSON.stringify(partSeconds)} (seconds)`);
  return {
    machine,
    apps,
    knobs: KNOBS,
    partSeconds,
    startupMs,
    sync,
    sql,
    closedLoop,
    paced,
    sustained,
    footprint,
    webhooks,
    memoryAfterCharges,
  };
}

async function main(): Promise<void> {
  const fromJson = process.env.BENCH_FROM_JSON;
  const report = fromJson ? readRunFile(resolve(fromJson)).report : await measure();
  if (!fromJson) {
    const run: RunFile = { summary: summarize(report), report };
    // Formatted as the checkout's Prettier would, so that `prettier --check` passes on bench/.
    const options = (await resolveConfig(JSON_FILE)) ?? {};
    writeFileSync(JSON_FILE, await format(JSON.stringify(run), { ...options, parser: 'json' }));
  }
  const baselineFile = process.env.BENCH_BASELINE;
  const earlier = baselineFile ? readRunFile(resolve(baselineFile)) : undefined;
  const baseline = earlier && { summary: earlier.summary, knobs: earlier.report?.knobs };
  const rendered = [
    render(report, baseline),
    // Written by hand from a profile, kept across runs: bench/analysis.md.
    readFileSync(join(REPO_ROOT, 'bench/analysis.md'), 'utf8'),
  ].join('\n');
  // Sections written by the other benchmarks (stores, cluster, bytes, compare) or by hand from
  // one: this run keeps them as they were.
  const written = existsSync(OUT) ? readFileSync(OUT, 'utf8') : '';
  let markdown = rendered;
  for (const title of [
    STORES_SECTION_TITLE,
    ONE_STATEMENT_WRITES_TITLE,
    BYTES_SECTION_TITLE,
    ...Object.values(COMPARE_SECTION_TITLES),
    CLUSTER_SECTION_TITLE,
  ]) {
    const kept = sectionOf(written, title);
    if (kept !== undefined) markdown = withSectionTitled(markdown, title, kept);
  }
  writeFileSync(OUT, markdown);
  process.stdout.write(markdown);
  process.stdout.write(`\nbench: wrote ${OUT}${fromJson ? '' : ` and ${JSON_FILE}`}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
