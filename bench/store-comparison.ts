/**
 * `npm run bench:stores`: the project on SQLite and on PostgreSQL in one run, so their ratio holds
 * on a busy machine. For each store: both apps started, 32 instant terminals linked, a warm-up,
 * then BENCH_REPS sync-charge runs of BENCH_SECONDS; then BENCH_REPS async closed loops per store,
 * the stores taking turns. On PostgreSQL, the round trips and statements per sync charge are then
 * counted from the wire in a run of their own, each app reaching the server through a counting
 * proxy (whose relaying is therefore in none of the figures). Writes the section "Two stores: SQLite and PostgreSQL" into
 * BENCHMARKS.md (the rest kept) and the raw results to bench/results/stores-<date>.json.
 *
 * Knobs (environment), with their defaults: BENCH_REPS (3), BENCH_SECONDS (10),
 * BENCH_WARMUP_SECONDS (15), BENCH_CONNECTIONS (32) terminals, one connection each;
 * BENCH_FROM_JSON: render the section from that JSON only, without measuring anything.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { format, resolveConfig } from 'prettier';
import { REPO_ROOT, Stack, TEST_POSTGRES_URL, createInstantTerminals, type StoreKind } from '@tps/testing';
import { measurePipeline } from './async-pipeline';
import { describeMachine } from './lib/machine';
import { PgCountingProxy } from './lib/pg-counting-proxy';
import { countsSince, statementCounts, type KindCounts, type MessageCounts } from './lib/pg-message-counter';
import { loadProject, warmThenRepeat } from './sync-charge-comparison';
import {
  renderStores,
  withSection,
  type StoreComparison,
  type StoreSync,
  type WireCounts,
} from './store-report';

const knob = (name: string, fallback: number): number => {
  const value = process.env[name];
  return value === undefined || value === '' ? fallback : Number(value);
};

const REPS = knob('BENCH_REPS', 3);
const SECONDS = knob('BENCH_SECONDS', 10);
const WARMUP_SECONDS = knob('BENCH_WARMUP_SECONDS', 15);
const CONNECTIONS = knob('BENCH_CONNECTIONS', 32);

const log = (what: string): void =>
  void process.stdout.write(`bench:stores ${new Date().toISOString()} ${what}\n`);

/** Per sync charge answered: what one app sent to PostgreSQL during the measured runs. */
function perCharge(before: WireReading, after: WireReading, charges: number): WireCounts {
  const since = statementCounts(countsSince(before.messages, after.messages));
  return {
    statements: since.statements / charges,
    roundTrips: since.roundTrips / charges,
    messages: since.messages,
    kinds: countsSince(before.kinds, after.kinds),
    charges,
  };
}

interface WireReading {
  messages: MessageCounts;
  kinds: KindCounts;
}

const readingOf = (proxy: PgCountingProxy): WireReading => ({
  messages: proxy.counts(),
  kinds: proxy.kinds(),
});

/**
 * Sync charges on one store: warm-up, then the measured runs, the apps reaching PostgreSQL
 * directly, so no relaying is in the figures.
 */
async function syncOn(store: StoreKind): Promise<StoreSync> {
  const stack = await Stack.start({ store, apiEnv: { RATE_LIMIT_MAX: '1000000' } });
  try {
    const serials = await createInstantTerminals(stack.client(), CONNECTIONS);
    const warmup = WARMUP_SECONDS > 0 ? await loadProject(stack, serials, WARMUP_SECONDS) : undefined;
    const { measured } = await warmThenRepeat(
      { warmupSeconds: 0, durationSeconds: SECONDS, reps: REPS },
      (seconds) => loadProject(stack, serials, seconds),
    );
    return { warmup, measured, wire: store === 'postgres' ? await countedOnTheWire() : undefined };
  } finally {
    await stack.stop();
  }
}

/**
 * What each app sends to PostgreSQL per sync charge: the same load on apps of their own, each
 * reaching the server through a counting proxy (a warm-up, then one run counted). Apart from the
 * measured runs, since the proxy's relaying in the benchmark's process would be in their latency.
 */
async function countedOnTheWire(): Promise<{ api: WireCounts; simulator: WireCounts }> {
  const server = new URL(TEST_POSTGRES_URL);
  const target = { host: server.hostname, port: Number(server.port || 5432) };
  const proxies = { api: await PgCountingProxy.start(target), terminal: await PgCountingProxy.start(target) };
  try {
    const stack = await Stack.start({
      store: 'postgres',
      apiEnv: { RATE_LIMIT_MAX: '1000000' },
      routeDatabase: (app, url) => proxies[app].route(url),
    });
    try {
      const serials = await createInstantTerminals(stack.client(), CONNECTIONS);
      if (WARMUP_SECONDS > 0) await loadProject(stack, serials, WARMUP_SECONDS);
      const before = { api: readingOf(proxies.api), terminal: readingOf(proxies.terminal) };
      const counted = await loadProject(stack, serials, SECONDS);
      return {
        api: perCharge(before.api, readingOf(proxies.api), counted.ok),
        simulator: perCharge(before.terminal, readingOf(proxies.terminal), counted.ok),
      };
    } finally {
      await stack.stop();
    }
  } finally {
    await proxies.api.close();
    await proxies.terminal.close();
  }
}

async function measure(): Promise<StoreComparison> {
  const machine = describeMachine();
  const loadAverage = loadavg();
  const started = Date.now();
  log('sync charge on SQLite');
  const sqliteSync = await syncOn('sqlite');
  log('sync charge on PostgreSQL');
  const postgresSync = await syncOn('postgres');
  const closedLoop: StoreComparison['closedLoop'] = { sqlite: [], postgres: [] };
  for (let i = 0; i < REPS; i++) {
    // The stores take turns, so a change in the machine's load falls on both.
    for (const store of ['sqlite', 'postgres'] as const) {
      log(`async closed loop on ${store} (${i + 1}/${REPS})`);
      closedLoop[store].push(await measurePipeline(CONNECTIONS, SECONDS, undefined, WARMUP_SECONDS, store));
    }
  }
  return {
    machine,
    loadAverage,
    knobs: { reps: REPS, seconds: SECONDS, warmupSeconds: WARMUP_SECONDS, connections: CONNECTIONS },
    runMinutes: (Date.now() - started) / 60_000,
    sync: { sqlite: sqliteSync, postgres: postgresSync },
    closedLoop,
  };
}

async function main(): Promise<void> {
  const fromJson = process.env.BENCH_FROM_JSON;
  const result = fromJson ? (JSON.parse(readFileSync(fromJson, 'utf8')) as StoreComparison) : await measure();
  const jsonFile =
    fromJson ?? join(REPO_ROOT, `bench/results/stores-${result.machine.date.slice(0, 10)}.json`);
  if (!fromJson) {
    // Formatted as the checkout's Prettier would, so that `prettier --check` passes on bench/.
    const options = (await resolveConfig(jsonFile)) ?? {};
    writeFileSync(jsonFile, await format(JSON.stringify(result), { ...options, parser: 'json' }));
  }
  const section = renderStores(result);
  const benchmarks = join(REPO_ROOT, 'BENCHMARKS.md');
  writeFileSync(benchmarks, withSection(readFileSync(benchmarks, 'utf8'), section));
  process.stdout.write(`${section}\nbench:stores wrote ${benchmarks} and ${jsonFile}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
