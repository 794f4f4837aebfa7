import type { Machine } from './lib/machine';

export const SECTION_TITLE = "## Tenants: one merchant's hanging receivers";

/** The target this run is judged against: the other merchant's p99, after warm-up. */
const TARGET_P99_MS = 300;

/** The apps a case ran. */
export interface Build {
  name: string;
  commit: string;
}

/** The other merchant's webhooks in one phase: its charges, and each event's wait, stored → received. */
export interface VictimPhase {
  charges: number;
  /** Charges not answered 200. */
  refused: number;
  /** Events received and timed. */
  events: number;
  p50: number;
  p99: number;
  max: number;
}

export interface TenantCase {
  build: Build;
  store: string;
  /** How long the abuser's 200 async charges took to be answered, s. */
  abusiveChargesSeconds: number;
  /** While the abuser's first attempts hang (they time out within it). */
  warmup: VictimPhase;
  measured: VictimPhase;
  /** The other merchant's deliveries still not delivered a minute after its last charge. */
  notDelivered: number;
  /** The abuser's requests open at its receivers during the measured run, sampled every 100 ms. */
  abuserInFlight: { mean: number; max: number };
  /** Attempts the abuser's receivers got during the measured run. */
  abuserAttempts: number;
  /** The API's CPU during the measured run, % of one core. */
  apiCpuPercent: number;
}

export interface TenantFairnessResult {
  machine: Machine;
  knobs: {
    warmupSeconds: number;
    seconds: number;
    ratePerSecond: number;
    hangingReceivers: number;
    abusiveCharges: number;
  };
  cases: TenantCase[];
  runMinutes: number;
}

const show = (n: number, digits: number): string => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');

export function renderTenantFairness(result: TenantFairnessResult): string {
  const { machine, knobs } = result;
  const row = (c: TenantCase): string =>
    `| ${c.build.name} (${c.build.commit}) | ${c.store} | ${c.measured.events} events of ${c.measured.charges} charges (${c.measured.refused} not 200) | ${show(c.measured.p50, 0)} | ${show(c.measured.p99, 0)} | ${show(c.measured.max, 0)} | ${show(c.warmup.p99, 0)} · ${show(c.warmup.max, 0)} | ${show(c.abuserInFlight.mean, 1)} · ${c.abuserInFlight.max} | ${c.abuserAttempts} | ${show(c.apiCpuPercent, 0)} % | ${c.notDelivered} |`;
  const after = result.cases.filter((c) => c.build.name === 'this checkout');
  const ratios = after.flatMap((a) => {
    const before = result.cases.find((c) => c.store === a.store && c !== a && c.build.name !== a.build.name);
    return before === undefined
      ? []
      : [
          `| ${a.store}: p99 before ÷ after | ${show(before.measured.p99, 0)} ms ÷ ${show(a.measured.p99, 0)} ms | ${show(before.measured.p99 / a.measured.p99, 0)}× |`,
        ];
  });
  return [
    SECTION_TITLE,
    '',
    `Reproduce with \`npm run bench:tenants\` (it builds first). ${machine.date}, ${machine.cores} cores, ${machine.cpu}, ${machine.memoryGiB} GiB, Node ${machine.node}; ${show(result.runMinutes, 1)} min.`,
    '',
    `One merchant makes ${knobs.abusiveCharges} async charges whose webhooks go to ${knobs.hangingReceivers} receivers on 127.0.0.1 that`,
    'never answer (each attempt lasts the 10 s `WEBHOOK_TIMEOUT_MS`, then is retried); another merchant',
    `makes async charges at ${knobs.ratePerSecond}/s to a receiver that answers 200 at once. Its events' wait from`,
    'being stored (the outbox row) to arriving, over the measured run, after a warm-up of the same load',
    `(${knobs.warmupSeconds} s) that covers the abusive attempts' first timeouts; then ${knobs.seconds} s measured. The abuser's`,
    'attempts in flight are the requests open at its receivers, every 100 ms. "Before fairness" is the',
    'build of the commit before a free slot went to the merchant with the fewest attempts in flight',
    '(64 slots shared per destination only, 8 each), run by the same benchmark code. The warm-up',
    "column is the abuser's first round: its first attempts take every slot they may before the",
    "other merchant's first event is due, and a slot frees only at a timeout. Before the reserve",
    '(contract, "Fairness") they took all 64, and the other merchant waited for a timeout; with it',
    'they take 56, and the last 8 stay free for a merchant with fewer than 8 in flight. From then on',
    'each of its destinations, having timed out 3 times in a row, holds one attempt in flight.',
    '',
    "| apps | store | other merchant's events (measured) | p50 ms | p99 ms | max ms | warm-up p99 · max ms | abuser in flight, mean · max | abuser attempts | API CPU | not delivered |",
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...result.cases.map(row),
    '',
    '| target | measured | verdict |',
    '| --- | --- | --- |',
    ...after.map(
      (c) =>
        `| ${c.store}: the other merchant's p99 ≤ ${TARGET_P99_MS} ms | ${show(c.measured.p99, 0)} ms | ${c.measured.p99 <= TARGET_P99_MS && c.notDelivered === 0 ? 'met' : 'not met'} |`,
    ),
    ...ratios,
    '',
  ].join('\n');
}
