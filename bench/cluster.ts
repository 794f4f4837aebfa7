/**
 * `npm run bench:cluster`: the scale-out form measured (API replicas on one PostgreSQL database).
 * 1. routed against local sync charges, closed-loop phases in turns: CPU per charge of every
 *    process (PostgreSQL's backends included), statements and round trips per charge;
 * 2. charges paced at a fixed rate, routed and local in turn: p50 and p99 of each;
 * 3. the bare hand-off between two processes, none of the service's code, paced at the routed
 *    phase's rate: through PostgreSQL as the service hands over (and in a closed loop), with the
 *    words alone, over a direct TCP connection: the least a routed charge can add;
 * 4. charges through the compose profile's load balancer (HAProxy, its configuration): its CPU
 *    per charge;
 * 5. a large fleet over two replicas and two simulator shards: memory per link, idle CPU, what
 *    goes to the database while idle; then the replica with half the links killed, and the time
 *    until every terminal is linked again;
 * 6. pgbench on this machine's server: built-in, and a script of one charge's statements.
 * Writes the section "Several replicas" of BENCHMARKS.md (the rest kept) and the raw results to
 * bench/results/cluster-<date>.json. A part that fails is reported as not measured, with why.
 *
 * Knobs (environment), with their defaults: BENCH_REPS (3) phases of each kind, BENCH_SECONDS (8)
 * each, BENCH_WARMUP_SECONDS (8) of each kind first; BENCH_CLUSTER_TERMINALS (16) closed-loop
 * terminals; BENCH_PACED_RATE (50) charges/s for BENCH_PACED_SECONDS (30); BENCH_FLEET (10000)
 * terminals, idle for BENCH_IDLE_SECONDS (30); BENCH_PGBENCH_SCALE (10), BENCH_PGBENCH_SECONDS
 * (20); BENCH_FROM_JSON: render the section from that JSON only, without measuring anything;
 * BENCH_PHASES (all): the parts to run, comma-separated, of routed, paced, floor, balancer, fleet,
 * pgbench.
 * A run of some parts only prints its section and writes its JSON (named after the parts), but
 * leaves BENCHMARKS.md as it is: the section there comes from a whole run.
 * About 6 minutes on a 2-core machine, the build not included.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { format, resolveConfig } from 'prettier';
import { REPO_ROOT } from '@tps/testing';
import { measureBalancer } from './cluster-balancer';
import { measurePaced, measureRoutedVsLocal } from './cluster-charges';
import { measureFleetAtScale } from './cluster-fleet';
import { measureHandOffFloor } from './handoff-floor';
import {
  CLUSTER_SECTION_TITLE,
  renderCluster,
  routedRateOf,
  type ClusterKnobs,
  type ClusterRun,
} from './cluster-report';
import { describeMachine } from './lib/machine';
import { withSectionTitled } from './lib/markdown-section';
import { measurePgbench } from './pgbench';

const knob = (name: string, fallback: number): number => {
  const value = process.env[name];
  return value === undefined || value === '' ? fallback : Number(value);
};

const KNOBS: ClusterKnobs = {
  reps: knob('BENCH_REPS', 3),
  seconds: knob('BENCH_SECONDS', 8),
  warmupSeconds: knob('BENCH_WARMUP_SECONDS', 8),
  terminals: knob('BENCH_CLUSTER_TERMINALS', 16),
  pacedRate: knob('BENCH_PACED_RATE', 50),
  pacedSeconds: knob('BENCH_PACED_SECONDS', 30),
  fleet: knob('BENCH_FLEET', 10_000),
  idleSeconds: knob('BENCH_IDLE_SECONDS', 30),
  pgbenchScale: knob('BENCH_PGBENCH_SCALE', 10),
  pgbenchSeconds: knob('BENCH_PGBENCH_SECONDS', 20),
};
/** The parts, by the names BENCH_PHASES takes. */
const PHASES = ['routed', 'paced', 'floor', 'balancer', 'fleet', 'pgbench'] as const;
type Phase = (typeof PHASES)[number];

function selectedPhases(): Set<Phase> {
  const value = process.env.BENCH_PHASES;
  if (value === undefined || value.trim() === '') return new Set(PHASES);
  const names = value.split(',').map((name) => name.trim());
  const unknown = names.filter((name) => !(PHASES as readonly string[]).includes(name));
  if (unknown.length > 0)
    throw new Error(`BENCH_PHASES: unknown ${unknown.join(', ')} (the parts: ${PHASES.join(', ')})`);
  return new Set(names as Phase[]);
}

const SELECTED = selectedPhases();
const WHOLE_RUN = SELECTED.size === PHASES.length;

/** pgbench's load: as many clients as a replica's pool, two threads for two cores. */
const PGBENCH_CLIENTS = 8;
const PGBENCH_THREADS = 2;
const LINK_TIMEOUT_SECONDS = 180;
/** The bare hand-off's pace when the routed phase did not run: about its closed loop's rate here. */
const FLOOR_RATE = 300;

const log = (what: string): void =>
  void process.stdout.write(`bench:cluster ${new Date().toISOString()} ${what}\n`);

async function measure(): Promise<ClusterRun> {
  const machine = describeMachine();
  const start = loadavg();
  const started = Date.now();
  const partSeconds: Record<string, number> = {};
  const failures: Record<string, string> = {};
  const part = async <T>(
    phase: Phase,
    name: string,
    title: string,
    run: () => Promise<T>,
  ): Promise<T | undefined> => {
    if (!SELECTED.has(phase)) {
      failures[name] = 'not selected (BENCH_PHASES)';
      return undefined;
    }
    log(title);
    const began = Date.now();
    try {
      return await run();
    } catch (error) {
      failures[name] = error instanceof Error ? error.message.split('\n')[0] : String(error);
      log(`${name} not measured: ${failures[name]}`);
      return undefined;
    } finally {
      partSeconds[name] = Math.round((Date.now() - began) / 1000);
    }
  };
  const routedVsLocal = await part('routed', 'routedVsLocal', 'routed against local charges', () =>
    measureRoutedVsLocal(KNOBS.terminals, KNOBS.seconds, KNOBS.reps, KNOBS.warmupSeconds),
  );
  const paced = await part(
    'paced',
    'paced',
    `charges paced at ${KNOBS.pacedRate}/s, routed and local in turn`,
    () => measurePaced(KNOBS.terminals, KNOBS.pacedRate, KNOBS.pacedSeconds, KNOBS.warmupSeconds),
  );
  // Paced at the rate the routed closed loop ran (when it did not run, about this machine's):
  // CPU per operation depends on the rate.
  const routedRate = (routedVsLocal && routedRateOf(routedVsLocal)) ?? FLOOR_RATE;
  const floor = await part('floor', 'floor', 'the bare hand-off between two processes', () =>
    measureHandOffFloor(routedRate, KNOBS.seconds),
  );
  const balancer = await part('balancer', 'balancer', "charges through the compose profile's HAProxy", () =>
    measureBalancer(KNOBS.terminals, KNOBS.seconds, KNOBS.reps, KNOBS.warmupSeconds),
  );
  const fleet = await part('fleet', 'fleet', `${KNOBS.fleet} terminals over two replicas`, () =>
    measureFleetAtScale(KNOBS.fleet, KNOBS.idleSeconds, LINK_TIMEOUT_SECONDS),
  );
  const pgbench = await part('pgbench', 'pgbench', 'pgbench', () =>
    measurePgbench(KNOBS.pgbenchScale, PGBENCH_CLIENTS, PGBENCH_THREADS, KNOBS.pgbenchSeconds),
  );
  return {
    machine,
    loadAverage: { start, end: loadavg() },
    knobs: KNOBS,
    runMinutes: (Date.now() - started) / 60_000,
    partSeconds,
    routedVsLocal,
    paced,
    floor,
    balancer,
    fleet,
    pgbench,
    failures,
  };
}

async function main(): Promise<void> {
  const fromJson = process.env.BENCH_FROM_JSON;
  const run = fromJson ? (JSON.parse(readFileSync(fromJson, 'utf8')) as ClusterRun) : await measure();
  const parts = WHOLE_RUN ? '' : `-${[...SELECTED].join('-')}`;
  const jsonFile =
    fromJson ?? join(REPO_ROOT, `bench/results/cluster-${run.machine.date.slice(0, 10)}${parts}.json`);
  if (!fromJson) {
    // Formatted as the checkout's Prettier would, so that `prettier --check` passes on bench/.
    const options = (await resolveConfig(jsonFile)) ?? {};
    writeFileSync(jsonFile, await format(JSON.stringify(run), { ...options, parser: 'json' }));
  }
  const section = renderCluster(run);
  if (!WHOLE_RUN && !fromJson) {
    process.stdout.write(
      `${section}\nbench:cluster wrote ${jsonFile} (BENCHMARKS.md untouched: some parts only)\n`,
    );
    return;
  }
  const benchmarks = join(REPO_ROOT, 'BENCHMARKS.md');
  writeFileSync(
    benchmarks,
    withSectionTitled(readFileSync(benchmarks, 'utf8'), CLUSTER_SECTION_TITLE, section),
  );
  process.stdout.write(`${section}\nbench:cluster wrote ${benchmarks} and ${jsonFile}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
