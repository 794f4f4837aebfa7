/**
 * `npm run bench:latency`: sync charges on PostgreSQL with the database a network hop away, as a
 * platform team runs it (contract, "The database a platform team runs"). The API reaches its
 * database through a TcpFaultProxy that delays each chunk each way; the simulator's database
 * stays direct (a terminal keeps its own). Each case's API pool is the size the published rule
 * gives (docs/scaling.md): rate × round trips × round-trip time ÷ 0.7, plus what background work
 * holds. Then both apps behind a real PgBouncer (Debian's) in each pool mode, two API replicas,
 * a fixed number of charges: none may be refused, lost or stored twice.
 *
 * Writes the section "The database a network hop away" into BENCHMARKS.md (the rest kept) and the
 * raw results to bench/results/latency-<date>.json.
 *
 * Knobs (environment), with their defaults: BENCH_SECONDS (15) per measured run, BENCH_WARMUP_SECONDS
 * (10) of the same load before it, BENCH_POOLER_CHARGES (2000); BENCH_FROM_JSON: render from that
 * JSON only. About 5 minutes on a 2-core machine.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { format, resolveConfig } from 'prettier';
import {
  PgBouncer,
  REPO_ROOT,
  Stack,
  TcpFaultProxy,
  createInstantTerminals,
  type PoolMode,
} from '@tps/testing';
import { chargeBody } from './lib/charge-body';
import { describeMachine, type Machine } from './lib/machine';
import { withSectionTitled } from './lib/markdown-section';
import { runPaced, summaryOf, type PacedSummary } from './lib/paced-charges';
import { PoolWaitSampler } from './lib/pool-wait-sampler';
import { SignedPoster } from './lib/signed-post';
import { loadProject } from './sync-charge-comparison';
import { renderLatency, SECTION_TITLE } from './database-latency-report';

const knob = (name: string, fallback: number): number => {
  const value = process.env[name];
  return value === undefined || value === '' ? fallback : Number(value);
};

const SECONDS = knob('BENCH_SECONDS', 15);
const WARMUP_SECONDS = knob('BENCH_WARMUP_SECONDS', 10);
const POOLER_CHARGES = knob('BENCH_POOLER_CHARGES', 2000);
/** Round trips a sync charge makes to the database, as counted on the wire (docs/scaling.md, "Pool size"). */
const ROUND_TRIPS = 3.2;
/** Connections held by background work beside the charges (docs/scaling.md, "Pool size"). */
const BACKGROUND_CONNECTIONS = 2;
const CLOSED_LOOP_TERMINALS = 64;
const POOLER_TERMINALS = 32;
const POOLER_RATE = 100;
const START_TIMEOUT_MS = 90_000;
/** The API's default DATABASE_POOL_SIZE, for the database next to it. */
const DEFAULT_POOL_SIZE = 10;
/** Two replicas' pools (DATABASE_POOL_SIZE and routing's 4 each), with room to spare. */
const SESSION_POOLER_CONNECTIONS = 40;

const log = (what: string): void =>
  void process.stdout.write(`bench:latency ${new Date().toISOString()} ${what}\n`);

/** The published rule: connections for `rate` charges/s at `oneWayMs` each way. */
export function poolSizeFor(rate: number, oneWayMs: number): number {
  const rttSeconds = (2 * oneWayMs) / 1000;
  return Math.ceil((rate * ROUND_TRIPS * rttSeconds) / 0.7) + BACKGROUND_CONNECTIONS;
}

export interface ClosedLoopCase {
  oneWayMs: number;
  poolSize: number;
  terminals: number;
  chargesPerSecond: number;
  p50: number;
  p99: number;
  refused: Record<string, number>;
  poolWaiting: { p99: number; max: number };
}

export interface PacedCase extends PacedSummary {
  oneWayMs: number;
  poolSize: number;
  terminals: number;
  ratePerSecond: number;
  sent: number;
  skipped: number;
  poolWaiting: { p99: number; max: number };
}

export interface PoolerCase extends PacedSummary {
  mode: PoolMode;
  replicas: number;
  sent: number;
  stored: number;
  /** Answered 200, and not stored. */
  lost: number;
  storedTwice: number;
}

export interface LatencyResult {
  machine: Machine;
  knobs: { seconds: number; warmupSeconds: number; poolerCharges: number };
  closedLoop: ClosedLoopCase[];
  paced: PacedCase[];
  pooler: PoolerCase[];
  runMinutes: number;
}

/** A stack whose API reaches PostgreSQL through `proxy`, its metrics on a port of their own. */
async function stackThrough(proxy: TcpFaultProxy, poolSize: number): Promise<Stack> {
  return Stack.start({
    store: 'postgres',
    startTimeoutMs: START_TIMEOUT_MS,
    apiEnv: { RATE_LIMIT_MAX: '1000000', DATABASE_POOL_SIZE: String(poolSize), METRICS_PORT: '0' },
    routeDatabase: (app, url) => (app === 'api' ? proxy.route(url) : url),
  });
}

async function closedLoop(oneWayMs: number, poolSize: number): Promise<ClosedLoopCase> {
  const proxy = await TcpFaultProxy.start();
  proxy.latencyMs = oneWayMs;
  const stack = await stackThrough(proxy, poolSize);
  try {
    const serials = await createInstantTerminals(stack.client(), CLOSED_LOOP_TERMINALS);
    if (WARMUP_SECONDS > 0) await loadProject(stack, serials, WARMUP_SECONDS);
    const sampler = PoolWaitSampler.start(stack.api.log);
    const load = await loadProject(stack, serials, SECONDS);
    return {
      oneWayMs,
      poolSize,
      terminals: serials.length,
      chargesPerSecond: load.ok / SECONDS,
      p50: load.p50,
      p99: load.p99,
      refused: Object.fromEntries(Object.entries(load.statusCodes).filter(([code]) => code !== '200')),
      poolWaiting: await sampler.stop(),
    };
  } finally {
    await stack.stop();
    await proxy.close();
  }
}

async function paced(oneWayMs: number, ratePerSecond: number, terminals: number): Promise<PacedCase> {
  const poolSize = poolSizeFor(ratePerSecond, oneWayMs);
  const proxy = await TcpFaultProxy.start();
  proxy.latencyMs = oneWayMs;
  const stack = await stackThrough(proxy, poolSize);
  const poster = new SignedPoster(stack.apiUrl, terminals);
  try {
    const serials = await createInstantTerminals(stack.client(), terminals);
    const send = (serial: string) => poster.post(`/terminal/v1/${serial}/sync/charge`, chargeBody());
    if (WARMUP_SECONDS > 0) await runPaced({ ratePerSecond, seconds: WARMUP_SECONDS, serials, send });
    const sampler = PoolWaitSampler.start(stack.api.log);
    const run = await runPaced({ ratePerSecond, seconds: SECONDS, serials, send });
    return {
      oneWayMs,
      poolSize,
      terminals,
      ratePerSecond,
      sent: run.charges.length,
      skipped: run.skipped,
      ...summaryOf(run.charges),
      poolWaiting: await sampler.stop(),
    };
  } finally {
    await poster.close();
    await stack.stop();
    await proxy.close();
  }
}

/** Two replicas behind PgBouncer in `mode`, charges asked of each in turn; then what was stored. */
async function behindPooler(mode: PoolMode): Promise<PoolerCase> {
  // Session mode gives each client connection a server connection for as long as it is open: the
  // pooler's pool must hold every replica's whole pool (docs/scaling.md, "Behind a pooler").
  const bouncer = await PgBouncer.start(
    mode,
    undefined,
    mode === 'session' ? SESSION_POOLER_CONNECTIONS : undefined,
  );
  const stack = await Stack.start({
    store: 'postgres',
    replicas: 2,
    startTimeoutMs: START_TIMEOUT_MS,
    apiEnv: { RATE_LIMIT_MAX: '1000000' },
    routeDatabase: (_app, url) => bouncer.route(url),
    directBesideRouted: true,
  });
  const posters = stack.replicas.map((replica) => new SignedPoster(replica.url, POOLER_TERMINALS));
  try {
    const serials = await createInstantTerminals(stack.client(), POOLER_TERMINALS);
    const idOf = new Map<number, string>();
    const run = await runPaced({
      ratePerSecond: POOLER_RATE,
      seconds: POOLER_CHARGES / POOLER_RATE,
      serials,
      send: (serial, tick) => {
        const body = chargeBody();
        idOf.set(tick, (JSON.parse(body) as { client_transaction_id: string }).client_transaction_id);
        return posters[tick % posters.length].post(`/terminal/v1/${serial}/sync/charge`, body);
      },
    });
    const stored = new Set(
      (
        await stack.store.rows<{ id: string }>('api', 'SELECT client_transaction_id AS id FROM transactions')
      ).map((row) => row.id),
    );
    const lost = run.charges.filter(
      (charge) => charge.status === 200 && !stored.has(idOf.get(charge.tick) ?? ''),
    );
    const twice = await stack.store.rows<{ id: string }>(
      'api',
      'SELECT client_transaction_id AS id FROM transactions GROUP BY merchant_id, client_transaction_id HAVING COUNT(*) > 1',
    );
    return {
      mode,
      replicas: stack.replicas.length,
      sent: run.charges.length,
      ...summaryOf(run.charges),
      stored: stored.size,
      lost: lost.length,
      storedTwice: twice.length,
    };
  } finally {
    await Promise.all(posters.map((poster) => poster.close()));
    await stack.stop();
    await bouncer.stop();
  }
}

async function measure(): Promise<LatencyResult> {
  const started = Date.now();
  const machine = describeMachine();
  log('closed loop, direct');
  const direct = await closedLoop(0, DEFAULT_POOL_SIZE);
  log(`closed loop, +5 ms each way (direct: ${direct.chargesPerSecond.toFixed(0)}/s)`);
  const near = await closedLoop(5, poolSizeFor(direct.chargesPerSecond, 5));
  const pacedCases: PacedCase[] = [];
  for (const [oneWayMs, rate, terminals] of [
    [50, 50, 128],
    [200, 10, 64],
  ] as const) {
    log(`paced at ${rate}/s over ${terminals} terminals, +${oneWayMs} ms each way`);
    pacedCases.push(await paced(oneWayMs, rate, terminals));
  }
  const pooler: PoolerCase[] = [];
  for (const mode of ['transaction', 'session'] as const) {
    log(`PgBouncer in ${mode} mode, 2 replicas, ${POOLER_CHARGES} charges`);
    pooler.push(await behindPooler(mode));
  }
  return {
    machine,
    knobs: { seconds: SECONDS, warmupSeconds: WARMUP_SECONDS, poolerCharges: POOLER_CHARGES },
    closedLoop: [direct, near],
    paced: pacedCases,
    pooler,
    runMinutes: (Date.now() - started) / 60_000,
  };
}

async function main(): Promise<void> {
  const fromJson = process.env.BENCH_FROM_JSON;
  const result = fromJson ? (JSON.parse(readFileSync(fromJson, 'utf8')) as LatencyResult) : await measure();
  const jsonFile =
    fromJson ?? join(REPO_ROOT, `bench/results/latency-${result.machine.date.slice(0, 10)}.json`);
  if (!fromJson) {
    // Formatted as the checkout's Prettier would, so that `prettier --check` passes on bench/.
    const options = (await resolveConfig(jsonFile)) ?? {};
    writeFileSync(jsonFile, await format(JSON.stringify(result), { ...options, parser: 'json' }));
  }
  const section = renderLatency(result);
  const benchmarks = join(REPO_ROOT, 'BENCHMARKS.md');
  writeFileSync(benchmarks, withSectionTitled(readFileSync(benchmarks, 'utf8'), SECTION_TITLE, section));
  process.stdout.write(`${section}\nbench:latency wrote ${benchmarks} and ${jsonFile}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
