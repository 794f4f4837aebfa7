import type { LatencyResult, PacedCase, PoolerCase } from './database-latency';

export const SECTION_TITLE = '## The database a network hop away';

/** The targets of contract §21 ("The database a platform team runs") this run is judged against. */
const TARGETS = { nearRatio: 0.7, p99At50Ms: 1500, p99At200Ms: 5000 };

const show = (n: number, digits: number): string => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');
const verdict = (met: boolean): string => (met ? 'met' : 'not met');
const refusals = (refused: Record<string, number>): string =>
  Object.keys(refused).length === 0
    ? '0'
    : Object.entries(refused)
        .map(([status, n]) => `${n} × ${status}`)
        .join(', ');
const refusedCount = (refused: Record<string, number>): number =>
  Object.values(refused).reduce((sum, n) => sum + n, 0);

const allAnswered = (c: PacedCase): boolean => refusedCount(c.refused) === 0 && c.charges === c.sent;
const pooledClean = (c: PoolerCase): boolean =>
  refusedCount(c.refused) === 0 && c.lost === 0 && c.storedTwice === 0;

export function renderLatency(result: LatencyResult): string {
  const { machine, knobs } = result;
  const [direct, near] = result.closedLoop;
  const ratio = near.chargesPerSecond / direct.chargesPerSecond;
  const pacedAt = (oneWayMs: number) => result.paced.find((c) => c.oneWayMs === oneWayMs);
  const at50 = pacedAt(50);
  const at200 = pacedAt(200);
  const pacedTarget = (c: PacedCase | undefined, p99Ms: number, label: string): string =>
    c === undefined
      ? `| ${label} | not run | not judged |`
      : `| ${label} | ${c.charges} of ${c.sent} answered 200, p99 ${show(c.p99, 0)} ms | ${verdict(
          allAnswered(c) && c.p99 <= p99Ms,
        )} |`;
  return [
    SECTION_TITLE,
    '',
    `Reproduce with \`npm run bench:latency\` (it builds first). ${machine.date}, ${machine.cores} cores, ${machine.cpu}, ${machine.memoryGiB} GiB, Node ${machine.node}; ${show(result.runMinutes, 1)} min.`,
    '',
    "Sync charges on PostgreSQL, the API reaching its database through a TCP proxy of the tests' own",
    '(`TcpFaultProxy`) that delays every chunk each way; the simulator keeps its database direct.',
    'Each API pool is the size the rule of docs/scaling.md gives for its case (rate × 3.2 round trips',
    `× round-trip time ÷ 0.7, plus 2 for background work). Each case: ${knobs.warmupSeconds} s of the same load,`,
    `then ${knobs.seconds} s measured. "Waiting for a connection" is the API's \`tps_database_pool_waiting\`,`,
    'read every 250 ms during the measured run.',
    '',
    '| case | pool | charges answered 200 | p50 ms | p99 ms | not 200 | waiting for a connection, p99 · max |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...result.closedLoop.map(
      (c) =>
        `| closed loop over ${c.terminals} terminals, ${c.oneWayMs === 0 ? 'direct' : `+${c.oneWayMs} ms each way`} | ${c.poolSize} | ${show(c.chargesPerSecond, 0)}/s | ${show(c.p50, 1)} | ${show(c.p99, 1)} | ${refusals(c.refused)} | ${show(c.poolWaiting.p99, 0)} · ${show(c.poolWaiting.max, 0)} |`,
    ),
    ...result.paced.map(
      (c) =>
        `| paced at ${c.ratePerSecond}/s over ${c.terminals} terminals, +${c.oneWayMs} ms each way | ${c.poolSize} | ${c.charges} of ${c.sent} | ${show(c.p50, 0)} | ${show(c.p99, 0)} | ${refusals(c.refused)} | ${show(c.poolWaiting.p99, 0)} · ${show(c.poolWaiting.max, 0)} |`,
    ),
    '',
    `Behind PgBouncer (Debian's), two API replicas, charges at 100/s asked of each replica in turn,`,
    `${knobs.poolerCharges} in all; then the API's database counted.`,
    '',
    '| pool mode | answered 200 | not 200 | p99 ms | stored | answered 200, not stored | stored twice |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...result.pooler.map(
      (c) =>
        `| ${c.mode} | ${c.charges} of ${c.sent} | ${refusals(c.refused)} | ${show(c.p99, 0)} | ${c.stored} | ${c.lost} | ${c.storedTwice} |`,
    ),
    '',
    '| target | measured | verdict |',
    '| --- | --- | --- |',
    `| +5 ms each way, closed loop: ≥ ${TARGETS.nearRatio}× direct | ${show(ratio, 2)}× | ${verdict(ratio >= TARGETS.nearRatio)} |`,
    pacedTarget(at50, TARGETS.p99At50Ms, `+50 ms each way at 50/s: all 200, p99 ≤ ${TARGETS.p99At50Ms} ms`),
    pacedTarget(
      at200,
      TARGETS.p99At200Ms,
      `+200 ms each way at 10/s: all 200, p99 ≤ ${TARGETS.p99At200Ms} ms`,
    ),
    ...result.pooler.map(
      (c) =>
        `| PgBouncer ${c.mode} mode, 2 replicas: 0 × 5xx, 0 lost, 0 twice | ${refusals(c.refused)} not 200, ${c.lost} lost, ${c.storedTwice} twice | ${verdict(pooledClean(c))} |`,
    ),
    '',
  ].join('\n');
}
