import { Stack, TEST_POSTGRES_URL, createInstantTerminals } from '@tps/testing';
import { chargeBody } from './lib/charge-body';
import { CpuMeter, type CpuByGroup } from './lib/cpu-meter';
import { refusedOf, runLoad } from './lib/load';
import { PgBackends } from './lib/pg-backends';
import { PgCountingProxy } from './lib/pg-counting-proxy';
import { countsSince, statementCounts, type KindCounts, type MessageCounts } from './lib/pg-message-counter';
import { isWrite } from './lib/sql-kind';
import { SignedPoster } from './lib/signed-post';
import { runPaced, summaryOf, type PacedSummary } from './lib/paced-charges';
import { signedCharge } from './sync-charge-comparison';

/** A charge asked of the replica that holds the terminal's links, or of the other one. */
export type ChargeKind = 'local' | 'routed';

/** What one app sent to PostgreSQL per charge answered, counted on the wire. */
export interface WirePerCharge {
  statements: number;
  roundTrips: number;
  /** Statements that insert, update or delete. */
  writes: number;
  /** Statements by kind (`INSERT <table>`, `SELECT`, …), per charge. */
  kinds: KindCounts;
}

/** One closed-loop phase of sync charges, all of one kind. */
export interface ChargePhase {
  kind: ChargeKind;
  seconds: number;
  charges: number;
  /** Answers that were not 200, by status, and requests that failed. */
  refused: Record<string, number>;
  errors: number;
  /** CPU spent during the phase, ms, by group: the asked replica, the holding one, simulator, PostgreSQL. */
  cpuMs: CpuByGroup;
  api: WirePerCharge;
  simulator: WirePerCharge;
}

/** The same processes for as long with no request: the CPU their background work takes. */
export interface IdlePhase {
  seconds: number;
  cpuMs: CpuByGroup;
}

export interface RoutedVsLocal {
  terminals: number;
  seconds: number;
  warmupSeconds: number;
  warmup: ChargePhase[];
  measured: ChargePhase[];
  idle: IdlePhase[];
}

/** One paced run, both kinds alternating charge by charge. */
export interface PacedCharges {
  ratePerSecond: number;
  seconds: number;
  terminals: number;
  latencies: Record<ChargeKind, PacedSummary>;
  /** Ticks at which every terminal was still busy: no charge started. */
  skipped: number;
}

/** CPU groups of a replicated stack: B holds the terminals' links, A is asked for routed charges. */
export const CPU_GROUPS = ['apiAsked', 'apiHolding', 'simulator', 'postgres'] as const;

const settle = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
/** Long enough for the charges a cut-off run left in flight to end (a busy terminal answers 409). */
const SETTLE_MS = 2000;
/** Each app may take this long to listen: the machine may be shared and busy. */
const START_TIMEOUT_MS = 90_000;

function perCharge(
  before: MessageCounts,
  after: MessageCounts,
  kinds: KindCounts,
  charges: number,
): WirePerCharge {
  const counts = statementCounts(countsSince(before, after));
  const perKind: KindCounts = {};
  for (const [kind, n] of Object.entries(kinds)) if (n !== 0) perKind[kind] = n / charges;
  const writes = Object.entries(kinds).reduce((sum, [kind, n]) => sum + (isWrite(kind) ? n : 0), 0);
  return {
    statements: counts.statements / charges,
    roundTrips: counts.roundTrips / charges,
    writes: writes / charges,
    kinds: perKind,
  };
}

/** Two replicas on one database, the simulator linked to the first; each app through proxies when counting. */
export async function startPair(
  proxies: { api: PgCountingProxy[]; simulator: PgCountingProxy } | undefined,
  terminals: number,
): Promise<{ stack: Stack; serials: string[] }> {
  const stack = await Stack.start({
    store: 'postgres',
    replicas: 2,
    apiEnv: { RATE_LIMIT_MAX: '1000000' },
    startTimeoutMs: START_TIMEOUT_MS,
    routeDatabase:
      proxies &&
      ((app, url, replica) =>
        app === 'terminal' ? proxies.simulator.route(url) : proxies.api[replica ?? 0].route(url)),
  });
  try {
    const serials = await createInstantTerminals(stack.client(), terminals);
    // The simulator links to the first replica of its API_URL: every link must be there.
    const linked = await Promise.all(
      stack.replicas.map(async (replica) => {
        const health = (await (await fetch(`${replica.url}/health`)).json()) as { linked_terminals: number };
        return health.linked_terminals;
      }),
    );
    if (linked[1] !== 0 || linked[0] < terminals)
      throw new Error(`links not all on the first replica: ${JSON.stringify(linked)}`);
    return { stack, serials };
  } catch (error) {
    await stack.stop();
    throw error;
  }
}

function cpuSince(before: CpuByGroup, after: CpuByGroup): CpuByGroup {
  const spent: CpuByGroup = {};
  for (const group of CPU_GROUPS) spent[group] = after[group] - before[group];
  return spent;
}

/** Counts (by message type, or by statement kind) of several proxies added up. */
const sumOf = (...all: Array<Record<string, number>>): Record<string, number> => {
  const total: Record<string, number> = {};
  for (const counts of all) for (const [key, n] of Object.entries(counts)) total[key] = (total[key] ?? 0) + n;
  return total;
};

/**
 * Sync charges on the terminals linked to replica B, asked of B (local) or of A (routed through
 * the database), in closed-loop phases that alternate, each app reaching PostgreSQL through a
 * counting proxy: CPU per charge of every process (both replicas, the simulator, the PostgreSQL
 * backends of the run's databases), and what each app sent to the server.
 */
export async function measureRoutedVsLocal(
  terminals: number,
  seconds: number,
  reps: number,
  warmupSeconds: number,
): Promise<RoutedVsLocal> {
  const server = new URL(TEST_POSTGRES_URL);
  const target = { host: server.hostname, port: Number(server.port || 5432) };
  const proxies = {
    api: [await PgCountingProxy.start(target), await PgCountingProxy.start(target)],
    simulator: await PgCountingProxy.start(target),
  };
  try {
    const { stack, serials } = await startPair(proxies, terminals);
    const backends = await PgBackends.open(TEST_POSTGRES_URL, [
      await stack.store.url('api'),
      await stack.store.url('terminal'),
    ]);
    const [holding, asked] = stack.replicas;
    const meter = await CpuMeter.start(
      { apiAsked: asked.pid, apiHolding: holding.pid, simulator: stack.simulator?.pid },
      { postgres: () => backends.pids() },
    );
    try {
      const phase = async (kind: ChargeKind, phaseSeconds: number): Promise<ChargePhase> => {
        await settle(SETTLE_MS);
        const apiWire = () => ({
          counts: sumOf(...proxies.api.map((proxy) => proxy.counts())),
          kinds: sumOf(...proxies.api.map((proxy) => proxy.kinds())),
        });
        const apiBefore = apiWire();
        const simulatorBefore = { counts: proxies.simulator.counts(), kinds: proxies.simulator.kinds() };
        const cpuBefore = await meter.reading();
        const startedAt = Date.now();
        const result = await runLoad({
          url: (kind === 'local' ? holding : asked).url,
          connections: serials.length,
          durationSeconds: phaseSeconds,
          request: (c) => signedCharge(serials[c]),
        });
        const cpuMs = cpuSince(cpuBefore, await meter.reading());
        const elapsed = (Date.now() - startedAt) / 1000;
        const charges = result.ok;
        const apiAfter = apiWire();
        return {
          kind,
          seconds: elapsed,
          charges,
          refused: refusedOf(result),
          errors: result.errors,
          cpuMs,
          api: perCharge(
            apiBefore.counts,
            apiAfter.counts,
            countsSince(apiBefore.kinds, apiAfter.kinds),
            charges,
          ),
          simulator: perCharge(
            simulatorBefore.counts,
            proxies.simulator.counts(),
            countsSince(simulatorBefore.kinds, proxies.simulator.kinds()),
            charges,
          ),
        };
      };
      const idlePhase = async (): Promise<IdlePhase> => {
        await settle(SETTLE_MS);
        const before = await meter.reading();
        const startedAt = Date.now();
        await settle(seconds * 1000);
        const cpuMs = cpuSince(before, await meter.reading());
        return { seconds: (Date.now() - startedAt) / 1000, cpuMs };
      };
      const warmup: ChargePhase[] = [];
      if (warmupSeconds > 0)
        for (const kind of ['local', 'routed'] as const) warmup.push(await phase(kind, warmupSeconds));
      const measured: ChargePhase[] = [];
      const idle: IdlePhase[] = [];
      // The kinds take turns, so a change in the machine's load falls on both; an idle phase
      // each turn gives the background work's CPU, to be taken off.
      for (let i = 0; i < reps; i++) {
        for (const kind of ['local', 'routed'] as const) measured.push(await phase(kind, seconds));
        idle.push(await idlePhase());
      }
      return { terminals, seconds, warmupSeconds, warmup, measured, idle };
    } finally {
      meter.stop();
      await backends.close();
      await stack.stop();
    }
  } finally {
    for (const proxy of [...proxies.api, proxies.simulator]) await proxy.close();
  }
}

/**
 * Sync charges started at a fixed rate, asked of the holding replica and of the other one in
 * turn, charge by charge, on a pair of replicas without proxies (the wire is not counted here, so
 * that no relaying is in the latencies): p50 and p99 of each kind, as the caller sees them.
 */
export async function measurePaced(
  terminals: number,
  ratePerSecond: number,
  seconds: number,
  warmupSeconds: number,
): Promise<PacedCharges> {
  const { stack, serials } = await startPair(undefined, terminals);
  const [holding, asked] = stack.replicas;
  const posters: Record<ChargeKind, SignedPoster> = {
    local: new SignedPoster(holding.url, terminals),
    routed: new SignedPoster(asked.url, terminals),
  };
  try {
    const run = async (runSeconds: number): Promise<PacedCharges> => {
      // Every other charge asked of the replica that does not hold the terminal's link.
      const kindOf = (tick: number): ChargeKind => (tick % 2 === 0 ? 'local' : 'routed');
      const { charges, skipped } = await runPaced({
        ratePerSecond,
        seconds: runSeconds,
        serials,
        send: (serial, tick) =>
          posters[kindOf(tick)].post(`/terminal/v1/${serial}/sync/charge`, chargeBody()),
      });
      const of = (kind: ChargeKind) => summaryOf(charges.filter((charge) => kindOf(charge.tick) === kind));
      return {
        ratePerSecond,
        seconds: runSeconds,
        terminals,
        latencies: { local: of('local'), routed: of('routed') },
        skipped,
      };
    };
    if (warmupSeconds > 0) await run(warmupSeconds);
    await settle(SETTLE_MS);
    return await run(seconds);
  } finally {
    await posters.local.close();
    await posters.routed.close();
    await stack.stop();
  }
}
