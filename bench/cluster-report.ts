import type { BalancerCost, BalancerPhase } from './cluster-balancer';
import type { ChargeKind, ChargePhase, PacedCharges, RoutedVsLocal } from './cluster-charges';
import type { FleetAtScale } from './cluster-fleet';
import type { FloorRun, HandOffFloor } from './handoff-floor';
import type { Machine } from './lib/machine';
import type { KindCounts } from './lib/pg-message-counter';
import { spread, type Spread } from './lib/stats';
import type { PgbenchResult, PgbenchRun } from './pgbench';

export interface ClusterKnobs {
  reps: number;
  seconds: number;
  warmupSeconds: number;
  terminals: number;
  pacedRate: number;
  pacedSeconds: number;
  fleet: number;
  idleSeconds: number;
  pgbenchScale: number;
  pgbenchSeconds: number;
}

/** What `npm run bench:cluster` measured; a part that failed has its reason instead of its figures. */
export interface ClusterRun {
  machine: Machine;
  /** The 1, 5 and 15 minute load averages when the run began and when it ended. */
  loadAverage: { start: number[]; end: number[] };
  knobs: ClusterKnobs;
  runMinutes: number;
  partSeconds: Record<string, number>;
  routedVsLocal?: RoutedVsLocal;
  paced?: PacedCharges;
  floor?: HandOffFloor;
  balancer?: BalancerCost;
  fleet?: FleetAtScale;
  pgbench?: PgbenchResult;
  failures: Record<string, string>;
}

export const CLUSTER_SECTION_TITLE = '## Several replicas';

/** The share of the offered paced charges that must be answered for the latencies to be judged. */
const PACED_CARRIED = 0.9;

/** The targets for the scale-out form, on this 2-core machine. */
const TARGETS = {
  routedExtraCpuMs: 0.3,
  routedExtraP50Ms: 3,
  routedExtraP99Ms: 10,
  kibPerLink: 30,
  idleCorePercent: 5,
  /** Idle writes per second a replica's links may add to what it writes with none: noise, not one per link. */
  extraIdleWritesPerSecond: 1,
  relinkMs: 15_000,
};

const show = (n: number | null | undefined, digits: number): string =>
  n !== null && n !== undefined && Number.isFinite(n) ? n.toFixed(digits) : 'n/a';
const withRange = (s: Spread, digits: number): string =>
  `${show(s.median, digits)} (${show(s.min, digits)}–${show(s.max, digits)})`;
const verdict = (met: boolean): string => (met ? 'met' : '**missed**');
const loads = (values: number[]): string => values.map((n) => n.toFixed(2)).join(', ');

const KIND_NAMES: Record<ChargeKind, string> = { local: 'local (asked of B)', routed: 'routed (asked of A)' };
const GROUP_NAMES: Record<string, string> = {
  apiAsked: 'API A (asked for routed charges)',
  apiHolding: 'API B (holds the links)',
  simulator: 'simulator',
  postgres: 'PostgreSQL backends',
};

/** Each group's CPU per second with no request (median over the idle phases), ms/s. */
function idleRates(result: RoutedVsLocal): Record<string, number> {
  const rates: Record<string, number> = {};
  for (const group of Object.keys(GROUP_NAMES))
    rates[group] = spread(result.idle.map((phase) => (phase.cpuMs[group] ?? NaN) / phase.seconds)).median;
  return rates;
}

/** A phase's CPU per charge for `groups`, ms: as spent, or with the background's share (idle rate × time) taken off. */
function cpuPerCharge(phase: ChargePhase, groups: string[], idle?: Record<string, number>): number {
  const spent = groups.reduce(
    (sum, group) => sum + (phase.cpuMs[group] ?? NaN) - (idle ? idle[group] * phase.seconds : 0),
    0,
  );
  return spent / phase.charges;
}

function refusedOf(phases: Array<ChargePhase | BalancerPhase>): string {
  const byStatus: Record<string, number> = {};
  for (const phase of phases)
    for (const [status, n] of Object.entries(phase.refused)) byStatus[status] = (byStatus[status] ?? 0) + n;
  const errors = phases.reduce((n, p) => n + p.errors, 0);
  const named = [
    ...Object.entries(byStatus).map(([status, n]) => `${n} × ${status}`),
    ...(errors > 0 ? [`${errors} failed`] : []),
  ];
  return named.length === 0 ? 'none' : named.join(', ');
}

/** The median rate of the routed closed-loop phases, charges/s, rounded to ten. */
export function routedRateOf(result: RoutedVsLocal): number | undefined {
  const rates = result.measured.filter((p) => p.kind === 'routed').map((p) => p.charges / p.seconds);
  const median = spread(rates).median;
  return Number.isFinite(median) && median > 0 ? Math.round(median / 10) * 10 : undefined;
}

const rateName = (run: FloorRun): string => (run.rate === null ? 'closed loop' : `paced at ${run.rate}/s`);

const FLOOR_KIND_NAMES: Record<FloorRun['kind'], string> = {
  stored: 'through PostgreSQL, a row and a word each way (as the service)',
  words: 'through PostgreSQL, the words alone (no row)',
  direct: 'a TCP connection between the two processes (no database)',
  pacing: "the asker's pacing alone (no hand-off)",
};

function floorSection(floor: HandOffFloor): string[] {
  const idle = spread(floor.runs.map((run) => run.idlePercent));
  return [
    "A hand-off between two processes, as between two replicas, with none of the service's code:",
    "the asker in this process, the holder in a process of its own; a sync charge's reply as a",
    `terminal sent it (${floor.replyBytes} bytes of JSON) comes back; ${floor.waiters} requests in flight. Three ways:`,
    '- **through PostgreSQL as the service hands over**, in a database of its own (made, then',
    '  dropped): the asker stores a request and sends its word in one statement; the holder, told,',
    '  takes it (one `UPDATE`), stores the reply and sends it in its word (one `UPDATE`); the rows go',
    '  in one `DELETE` a second; unlogged table, prepared statements;',
    '- **the words alone**: the request in one `pg_notify`, the reply in another, no row;',
    '- **a direct connection**: the request and the reply as lines of JSON on one TCP connection',
    '  between the two processes, no database at all.',
    '',
    'Paced, each process sleeps between hand-offs and every word wakes it; in the closed loop, as in',
    'the service under load, the processes are busy and one wake-up serves several words. So a paced',
    "figure is not a lower bound of the service's routing; side by side at one pace, the rows show",
    'what going through PostgreSQL costs against a direct connection. CPU from /proc: both processes',
    "(the asker's pacing timers included, measured alone in the first row) and the database's",
    `backends, less what the same processes spent idle for as long first (${show(idle.min, 2)}–${show(
      idle.max,
      2,
    )} % of a core).`,
    '',
    '| hand-off | load | hand-offs/s | CPU, asker, ms | CPU, holder, ms | CPU, PostgreSQL backends, ms | CPU, all, ms |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...floor.runs.map(
      (run) =>
        `| ${FLOOR_KIND_NAMES[run.kind]} | ${rateName(run)} | ${show(run.handOffs / run.seconds, 0)} | ${show(
          run.askerMs,
          3,
        )} | ${show(run.holderMs, 3)} | ${show(run.postgresMs, 3)} | ${show(run.totalMs, 3)} |`,
    ),
  ];
}

/** HAProxy's CPU per charge, ms, its idle share taken off, of each phase. */
export function balancerCpuPerCharge(cost: BalancerCost): number[] {
  return cost.measured.map((phase) => (phase.cpuMs - cost.idleMsPerSecond * phase.seconds) / phase.charges);
}

function balancerSection(cost: BalancerCost, knobs: ClusterKnobs): string[] {
  const of = (pick: (phase: BalancerPhase) => number, digits: number): string =>
    withRange(spread(cost.measured.map(pick)), digits);
  return [
    `Sync charges in a closed loop over ${cost.terminals} instant terminals through HAProxy (Debian's: the program`,
    "of the compose profile's official image) running `deploy/haproxy-cluster.cfg` with only its addresses",
    'changed, request log on, in front of two replicas on one database, the terminals linked to the first',
    "(directly): the balancer sends each terminal's charges to the replica its serial hashes to, so some",
    'are local and the rest routed. The replicas do what they',
    'do without it; what it adds is its own CPU, from /proc, less its idle CPU',
    `(its health checks: ${show(cost.idleMsPerSecond / 10, 2)} % of a core). ${cost.measured.length} phases of ${knobs.seconds} s after`,
    `${cost.warmupSeconds} s of warm-up; median (min–max).`,
    '',
    '| through the balancer | per phase |',
    '| --- | --- |',
    `| charges/s (closed loop) | ${of((phase) => phase.charges / phase.seconds, 0)} |`,
    `| CPU, HAProxy, ms per charge | ${withRange(spread(balancerCpuPerCharge(cost)), 3)} |`,
    `| p50 as the caller sees it, ms (${cost.terminals} in flight: mostly the closed loop's queue) | ${of((phase) => phase.p50, 1)} |`,
    `| p99 as the caller sees it, ms (the same) | ${of((phase) => phase.p99, 1)} |`,
    `| answers not 200, or failed | ${refusedOf(cost.measured)} |`,
  ];
}

function routedSection(result: RoutedVsLocal): { lines: string[]; extraCpu: number } {
  const of = (kind: ChargeKind) => result.measured.filter((phase) => phase.kind === kind);
  const figure = (pick: (phase: ChargePhase) => number) => ({
    local: spread(of('local').map(pick)),
    routed: spread(of('routed').map(pick)),
  });
  const row = (name: string, figures: { local: Spread; routed: Spread }, digits: number): string =>
    `| ${name} | ${withRange(figures.local, digits)} | ${withRange(figures.routed, digits)} | ${show(
      figures.routed.median - figures.local.median,
      digits,
    )} |`;
  const idle = idleRates(result);
  const groups = Object.keys(GROUP_NAMES);
  const total = figure((p) => cpuPerCharge(p, groups, idle));
  const kinds = (kind: ChargeKind): KindCounts => {
    const summed: KindCounts = {};
    const phases = of(kind);
    for (const phase of phases)
      for (const [name, n] of Object.entries(phase.api.kinds))
        summed[name] = (summed[name] ?? 0) + n / phases.length;
    return summed;
  };
  const local = kinds('local');
  const routed = kinds('routed');
  const differing = [...new Set([...Object.keys(local), ...Object.keys(routed)])]
    .filter((name) => Math.abs((routed[name] ?? 0) - (local[name] ?? 0)) >= 0.05)
    .sort();
  const lines = [
    `Sync charges in a closed loop over ${result.terminals} instant terminals, all linked to replica B;`,
    `phases of ${result.seconds} s alternate: asked of B (local), then of A (routed: A stores the request`,
    'for B in PostgreSQL, B sends it over its link, stores the reply and tells A with it, A answers).',
    `Each kind first ran ${result.warmupSeconds} s of warm-up on the same processes. CPU is user + system from`,
    "/proc of every process: both API replicas, the simulator, and the PostgreSQL backends of the run's",
    "databases (listed every 0.5 s; the server's shared WAL writer and checkpointer are not counted).",
    `The same processes' background work (heartbeats, polls, the fleet sync), measured in an idle phase of`,
    `${result.seconds} s after each turn, is taken off each phase's CPU (idle rate × the phase's time); idle, in % of a`,
    `core: ${groups.map((group) => `${GROUP_NAMES[group]} ${show(idle[group] / 10, 1)}`).join(', ')}.`,
    'Statements and round trips are counted on the wire by a proxy between each app and the server',
    '(statements: simple queries and executes; round trips: simple queries and syncs), background work',
    'during the phase included. Median over the phases of each kind (min–max).',
    '',
    `| per charge | ${KIND_NAMES.local} | ${KIND_NAMES.routed} | routed − local |`,
    '| --- | --- | --- | --- |',
    row(
      'charges/s (closed loop)',
      figure((p) => p.charges / p.seconds),
      0,
    ),
    ...groups.map((group) =>
      row(
        `CPU, ${GROUP_NAMES[group]}, ms`,
        figure((p) => cpuPerCharge(p, [group], idle)),
        3,
      ),
    ),
    row('CPU, all processes, ms', total, 3),
    row(
      'CPU, all processes, background not taken off, ms',
      figure((p) => cpuPerCharge(p, groups)),
      3,
    ),
    row(
      'API statements (both replicas)',
      figure((p) => p.api.statements),
      2,
    ),
    row(
      'API round trips (both replicas)',
      figure((p) => p.api.roundTrips),
      2,
    ),
    row(
      'API writes (INSERT, UPDATE, DELETE)',
      figure((p) => p.api.writes),
      2,
    ),
    row(
      'simulator statements',
      figure((p) => p.simulator.statements),
      2,
    ),
    row(
      'simulator round trips',
      figure((p) => p.simulator.roundTrips),
      2,
    ),
    `| answers not 200, or failed | ${refusedOf(of('local'))} | ${refusedOf(of('routed'))} | |`,
    '',
    'The API statements whose count per charge differs between the two (mean over the phases):',
    '',
    '| statement | local | routed |',
    '| --- | --- | --- |',
    ...(differing.length === 0
      ? ['| none | | |']
      : differing.map(
          (name) => `| \`${name}\` | ${show(local[name] ?? 0, 2)} | ${show(routed[name] ?? 0, 2)} |`,
        )),
  ];
  return { lines, extraCpu: total.routed.median - total.local.median };
}

function pacedSection(paced: PacedCharges): string[] {
  const row = (kind: ChargeKind): string => {
    const l = paced.latencies[kind];
    const refused = Object.entries(l.refused).map(([status, n]) => `${n} × ${status}`);
    return `| ${KIND_NAMES[kind]} | ${l.charges} | ${show(l.p50, 1)} | ${show(l.p99, 1)} | ${
      refused.length === 0 ? 'none' : refused.join(', ')
    } |`;
  };
  return [
    `Sync charges started at ${paced.ratePerSecond} a second for ${paced.seconds} s over ${paced.terminals} instant terminals`,
    'linked to B, asked of B and of A in turn, charge by charge, after a warm-up of the same load; a',
    'second pair of replicas without the counting proxies, so that no relaying is in the latencies.',
    `Latency as the caller sees it. Ticks at which every terminal was busy (no charge started): ${paced.skipped}.`,
    '',
    '| charges | answered 200 | p50 ms | p99 ms | not 200, or failed |',
    '| --- | --- | --- | --- | --- |',
    row('local'),
    row('routed'),
  ];
}

const kib = (mib: number, links: number): number => (mib * 1024) / links;

const replicaName = (n: number): string => (n === 0 ? 'first' : 'second');

function fleetSection(fleet: FleetAtScale): string[] {
  const idleKinds = (kinds: KindCounts): string =>
    Object.entries(kinds)
      .sort(([, a], [, b]) => b - a)
      .map(([kind, rate]) => `\`${kind}\` ${show(rate, 2)}`)
      .join(', ') || 'none';
  const { kill } = fleet;
  return [
    `${fleet.terminals} terminals added to the fleet (plus the seed's three) over two API replicas and two`,
    "simulator shards (FLEET_SHARES=2), each shard's control link (and so its uplinks) first tried on a",
    `replica of its own. ${fleet.linked} of ${fleet.expected} were linked ${show(fleet.linkSeconds, 1)} s after the shards started`,
    `(the replicas' own counts), and their holders stored (what the other replicas route by) after ${show(fleet.storedSeconds, 1)} s.`,
    "Memory: each replica's resident set before any link and 5 s after linking, as sampled and after a",
    `full garbage collection (asked through its inspector on loopback). Idle: ${fleet.idleSeconds} s with every terminal`,
    'linked and no request, statements counted on the wire per replica; writes also counted for',
    `${show(fleet.idleSeconds / 3, 0)} s before any terminal linked, the baseline that links must not raise.`,
    '',
    '| replica | links | RSS before → after, MiB | KiB per link | after a full GC, MiB | KiB per link | idle CPU, % of a core | idle writes/s, no link → linked |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
    ...fleet.replicas.map(
      (r, n) =>
        `| ${replicaName(n)} | ${r.links} | ${show(r.residentBeforeMiB, 1)} → ${show(r.residentAfterMiB, 1)} | ${show(
          kib(r.residentAfterMiB - r.residentBeforeMiB, r.links),
          1,
        )} | ${show(r.collectedBeforeMiB, 1)} → ${show(r.collectedAfterMiB, 1)} | ${show(
          kib(r.collectedAfterMiB - r.collectedBeforeMiB, r.links),
          1,
        )} | ${show(r.idleCpuPercent, 2)} | ${show(r.unlinkedWritesPerSecond, 2)} → ${show(r.idleWritesPerSecond, 2)} |`,
    ),
    '',
    'What each replica sent to PostgreSQL per second while idle and linked, by statement:',
    '',
    ...fleet.replicas.map((r, n) => `- ${replicaName(n)} replica: ${idleKinds(r.idleStatementsPerSecond)}`),
    '',
    `Idle, the simulator shards: ${fleet.shards
      .map(
        (s) =>
          `${s.share} hosts ${s.hosted} (RSS ${show(s.residentMiB, 1)} MiB, ${show(s.idleCpuPercent, 2)} % of a core)`,
      )
      .join(
        '; ',
      )}; the PostgreSQL backends of the API's database ${show(fleet.postgresIdleCpuPercent, 2)} % of a core.`,
    '',
    `Then the ${replicaName(kill.replica)} replica, holding ${kill.linksHeld} of the ${kill.linkedBefore} links, was killed (SIGKILL):`,
    `all ${kill.linkedBefore} were linked to the other again after ${show(kill.relinkedMs, 0)} ms (the survivor's own count`,
    `of its uplinks), and the stored holders said so after ${show(kill.storedMs, 0)} ms${
      kill.relinkedMs === null || kill.storedMs === null ? ' (n/a: not within the wait)' : ''
    }.`,
  ];
}

function pgbenchSection(result: PgbenchResult): string[] {
  const row = (run: PgbenchRun): string =>
    `| ${run.name} | ${run.clients} clients, ${run.threads} threads, ${run.seconds} s | ${show(run.transactionsPerSecond, 0)} | ${show(
      run.latencyAverageMs,
      2,
    )} | ${show(run.postgresCpuMsPerTransaction, 3)} | ${run.failed} |`;
  return [
    `${result.version} on this machine's server, in a database of its own (made, then dropped): \`pgbench -i -s ${result.scale}\``,
    `(${show(result.initSeconds, 0)} s), then the built-in transaction and \`bench/pgbench-charge.sql\`, the statements of one`,
    "sync charge (one read, the record inserted and committed, four events and the record's update",
    'committed together; prepared). CPU is that of the backends, from /proc. Server settings:',
    `${Object.entries(result.settings)
      .map(([name, value]) => `\`${name}\` ${value}`)
      .join(', ')}.`,
    '',
    '| transaction | load | transactions/s | latency average, ms | PostgreSQL CPU per transaction, ms | failed |',
    '| --- | --- | --- | --- | --- | --- |',
    row(result.builtin),
    row(result.charge),
  ];
}

/** The section for BENCHMARKS.md, with the targets' verdicts. */
export function renderCluster(run: ClusterRun): string {
  const { machine } = run;
  const targets: string[] = [];
  const parts: string[] = [];
  const notMeasured = (part: string): string =>
    `not measured: ${run.failures[part] ?? 'the part did not run'}`;

  parts.push('### Routed against local charge', '');
  if (run.routedVsLocal) {
    const { lines, extraCpu } = routedSection(run.routedVsLocal);
    parts.push(...lines);
    const rate = routedRateOf(run.routedVsLocal);
    const bare = (kind: FloorRun['kind']): FloorRun | undefined =>
      run.floor?.runs.find((r) => r.kind === kind && r.rate === rate);
    const [stored, direct, pacing] = [bare('stored'), bare('direct'), bare('pacing')];
    const floorNote =
      stored === undefined || direct === undefined || pacing === undefined
        ? ''
        : `; the bare hand-off alone, paced at ${rate}/s: ${show(stored.totalMs, 3)} ms through PostgreSQL, ${show(
            direct.totalMs - pacing.totalMs,
            3,
          )} ms between two processes over TCP with no database (pacing taken off)`;
    targets.push(
      `| a routed charge costs at most ${TARGETS.routedExtraCpuMs} ms more CPU than a local one, all processes | ${show(
        extraCpu,
        3,
      )} ms more${floorNote} | ${verdict(extraCpu <= TARGETS.routedExtraCpuMs)} |`,
      `| statements and round trips per charge, routed and local | above | met |`,
    );
  } else {
    parts.push(notMeasured('routedVsLocal'));
    targets.push(
      `| a routed charge at most ${TARGETS.routedExtraCpuMs} ms more CPU | ${notMeasured('routedVsLocal')} | not judged |`,
    );
  }

  parts.push('', '### Paced charges, routed and local in turn', '');
  if (run.paced) {
    parts.push(...pacedSection(run.paced));
    const { local, routed } = run.paced.latencies;
    const p50 = routed.p50 - local.p50;
    const p99 = routed.p99 - local.p99;
    const offered = run.paced.ratePerSecond * run.paced.seconds;
    const carried = (local.charges + routed.charges) / offered;
    // A rate the machine did not carry measures its queue, not the routing: no verdict then.
    const judged = (met: boolean): string =>
      carried >= PACED_CARRIED
        ? verdict(met)
        : `not judged: ${show(carried * 100, 0)} % of the offered charges started and answered`;
    targets.push(
      `| paced at ${run.paced.ratePerSecond}/s: routed p50 at most +${TARGETS.routedExtraP50Ms} ms | ${show(routed.p50, 1)} against ${show(
        local.p50,
        1,
      )} ms (${show(p50, 1)}) | ${judged(p50 <= TARGETS.routedExtraP50Ms)} |`,
      `| paced at ${run.paced.ratePerSecond}/s: routed p99 at most +${TARGETS.routedExtraP99Ms} ms | ${show(routed.p99, 1)} against ${show(
        local.p99,
        1,
      )} ms (${show(p99, 1)}) | ${judged(p99 <= TARGETS.routedExtraP99Ms)} |`,
    );
  } else {
    parts.push(notMeasured('paced'));
    targets.push(`| paced: routed p50 and p99 | ${notMeasured('paced')} | not judged |`);
  }

  parts.push('', '### A bare hand-off between two processes', '');
  parts.push(...(run.floor ? floorSection(run.floor) : [notMeasured('floor')]));

  parts.push('', '### The load balancer', '');
  parts.push(...(run.balancer ? balancerSection(run.balancer, run.knobs) : [notMeasured('balancer')]));

  parts.push('', '### A large fleet over two replicas', '');
  if (run.fleet) {
    const fleet = run.fleet;
    parts.push(...fleetSection(fleet));
    const scale =
      fleet.linked >= fleet.expected
        ? `${fleet.expected} links`
        : `only ${fleet.linked} of ${fleet.expected} linked`;
    // What the links cost the cluster: both replicas' growth over all their links (a replica with
    // few links shows mostly its own unrelated growth).
    const links = fleet.replicas.reduce((n, r) => n + r.links, 0);
    const perLink = (pick: (r: FleetAtScale['replicas'][number]) => number): number =>
      kib(
        fleet.replicas.reduce((sum, r) => sum + pick(r), 0),
        links,
      );
    const sampledKib = perLink((r) => r.residentAfterMiB - r.residentBeforeMiB);
    const collectedKib = perLink((r) => r.collectedAfterMiB - r.collectedBeforeMiB);
    const worstCpu = Math.max(...fleet.replicas.map((r) => r.idleCpuPercent));
    const extraWrites = Math.max(
      ...fleet.replicas.map((r) => r.idleWritesPerSecond - r.unlinkedWritesPerSecond),
    );
    const relinkMs = Math.max(fleet.kill.relinkedMs ?? Infinity, fleet.kill.storedMs ?? Infinity);
    targets.push(
      `| at most ${TARGETS.kibPerLink} KB of memory per link (${scale}; RSS as sampled, both replicas' growth over all links) | ${show(
        sampledKib,
        1,
      )} KiB | ${verdict(sampledKib <= TARGETS.kibPerLink)} |`,
      `| at most ${TARGETS.kibPerLink} KB of memory per link (${scale}; RSS after a full GC, both replicas' growth over all links) | ${show(
        collectedKib,
        1,
      )} KiB | ${verdict(collectedKib <= TARGETS.kibPerLink)} |`,
      `| at most ${TARGETS.idleCorePercent} % of a core per replica idle (${scale}) | ${show(worstCpu, 2)} % | ${verdict(
        worstCpu <= TARGETS.idleCorePercent,
      )} |`,
      `| no database write per heartbeat: idle writes/s with the links at most ${TARGETS.extraIdleWritesPerSecond} above those with none, per replica | ${show(
        extraWrites,
        2,
      )} more (${fleet.replicas.map((r) => `${show(r.unlinkedWritesPerSecond, 1)} → ${show(r.idleWritesPerSecond, 1)}`).join(', ')}) | ${verdict(
        extraWrites <= TARGETS.extraIdleWritesPerSecond,
      )} |`,
      `| a replica holding ${fleet.kill.linksHeld} links killed: all linked again within ${TARGETS.relinkMs / 1000} s | ${show(
        fleet.kill.relinkedMs,
        0,
      )} ms (stored holders: ${show(fleet.kill.storedMs, 0)} ms) | ${verdict(relinkMs <= TARGETS.relinkMs)} |`,
    );
  } else {
    parts.push(notMeasured('fleet'));
    targets.push(
      `| a large fleet: memory, idle CPU, idle writes, re-link | ${notMeasured('fleet')} | not judged |`,
    );
  }

  parts.push('', '### pgbench', '');
  if (run.pgbench) {
    parts.push(...pgbenchSection(run.pgbench));
    targets.push(
      `| what PostgreSQL sustains here, measured with pgbench | ${show(run.pgbench.builtin.transactionsPerSecond, 0)} built-in, ${show(
        run.pgbench.charge.transactionsPerSecond,
        0,
      )} charge-script transactions/s | met |`,
    );
  } else {
    parts.push(notMeasured('pgbench'));
    targets.push(`| pgbench on this machine | ${notMeasured('pgbench')} | not judged |`);
  }

  return [
    CLUSTER_SECTION_TITLE,
    '',
    'Reproduce with `npm run bench:cluster` (it builds first). API replicas on one PostgreSQL database,',
    'every process real, on the same machine at the same time. What scales to other machines is the',
    'cost per operation (CPU per charge of every process, statements and round trips per charge,',
    'memory per link), not the throughput: see docs/scaling.md for what it means for a deployment.',
    '',
    `- date: ${machine.date}`,
    `- machine: ${machine.cores} cores, ${machine.cpu}, ${machine.memoryGiB} GiB; Node ${machine.node}`,
    `- load average when the run began: ${loads(run.loadAverage.start)}; when it ended: ${loads(run.loadAverage.end)} (1, 5, 15 min)`,
    `  on ${machine.cores} cores: the machine was shared with other work, so throughput and latency are lower and`,
    '  noisier than an idle machine gives; the comparisons (routed against local) are made in the same run, in turns',
    `- run: ${run.runMinutes.toFixed(1)} min after the build (${Object.entries(run.partSeconds)
      .map(([part, s]) => `${part} ${s} s`)
      .join(', ')})`,
    '',
    ...parts,
    '',
    '### Targets',
    '',
    '| target | measured | verdict |',
    '| --- | --- | --- |',
    ...targets,
    '',
  ].join('\n');
}
