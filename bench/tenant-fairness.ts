/**
 * `npm run bench:tenants`: one tenant's hanging receivers against another tenant's webhooks
 * (contract, "Webhook delivery", Fairness). The abusive merchant (the demo
 * merchant) makes 200 async charges whose webhooks go to 10 receivers on 127.0.0.1 that never
 * answer, so its attempts last the whole WEBHOOK_TIMEOUT_MS (10 s, the default) and are retried;
 * meanwhile the other merchant makes paced async charges to a receiver that answers 200 at once.
 * Measured: the other merchant's wait from each event stored (its outbox row) to its arrival at
 * the receiver, after a warm-up that covers the abuser's first timeouts, and the abuser's attempts
 * in flight (requests open at its receivers, sampled every 100 ms).
 *
 * Each case runs in a child process of its own (the apps' root is fixed when the testing library
 * loads): this checkout's apps on each store, and the apps of the commit before fairness between
 * merchants (FAIR_SINCE's parent, built once into the temporary directory), for the ratio.
 *
 * Writes the section "Tenants: one merchant's hanging receivers" into BENCHMARKS.md (the rest kept)
 * and the raw results to bench/results/tenants-<date>.json.
 *
 * Knobs (environment), with their defaults: BENCH_WARMUP_SECONDS (15), BENCH_SECONDS (20) measured,
 * BENCH_RATE (5) of the other merchant's charges a second, BENCH_STORES (sqlite,postgres: this
 * checkout's apps on each), BENCH_BEFORE_STORES (sqlite: the build before fairness on each; empty:
 * none), BENCH_BEFORE_ROOT (a checkout of that build, built, instead of building it);
 * BENCH_FROM_JSON: render from that JSON only. About 3 minutes on a 2-core machine.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { format, resolveConfig } from 'prettier';
import {
  APPS_ROOT,
  DEMO_MERCHANT,
  OTHER_MERCHANT,
  REPO_ROOT,
  Stack,
  WebhookReceiver,
  createInstantTerminals,
  neverAnswer,
  poll,
  previousBuild,
  type StoreKind,
} from '@tps/testing';
import { chargeBody } from './lib/charge-body';
import { describeMachine } from './lib/machine';
import { withSectionTitled } from './lib/markdown-section';
import { storedToReceivedMs } from './lib/outbox-latency';
import { runPaced } from './lib/paced-charges';
import { cpuTimeMs } from './lib/resident-memory';
import { SignedPoster } from './lib/signed-post';
import { percentile } from './lib/stats';
import {
  SECTION_TITLE,
  renderTenantFairness,
  type Build,
  type TenantCase,
  type TenantFairnessResult,
} from './tenant-fairness-report';

const knob = (name: string, fallback: number): number => {
  const value = process.env[name];
  return value === undefined || value === '' ? fallback : Number(value);
};
const listKnob = (name: string, fallback: string): StoreKind[] =>
  (process.env[name] ?? fallback)
    .split(',')
    .filter((store) => store !== '')
    .map((store) => {
      if (store === 'sqlite' || store === 'postgres') return store;
      throw new Error(`${name}: sqlite or postgres, not ${store}`);
    });

const WARMUP_SECONDS = knob('BENCH_WARMUP_SECONDS', 15);
const SECONDS = knob('BENCH_SECONDS', 20);
const RATE = knob('BENCH_RATE', 5);
const HANGING = 10;
const ABUSIVE_CHARGES = 200;
const ABUSER_TERMINALS = 16;
const VICTIM_TERMINALS = 4;
/** The commit that made a free slot go to the merchant with the fewest attempts in flight. */
const FAIR_SINCE = 'ff285f0';
const CHILD = '--one-case';

const settle = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const log = (what: string): void =>
  void process.stderr.write(`bench:tenants ${new Date().toISOString()} ${what}\n`);

/** `charges` async charges over `serials`, each terminal one after the other (TER-003: asked again). */
async function chargeAll(
  poster: SignedPoster,
  serials: string[],
  urls: string[],
  charges: number,
): Promise<void> {
  let next = 0;
  await Promise.all(
    serials.map(async (serial) => {
      for (let n = next++; n < charges; n = next++) {
        const path = `/terminal/v1/${serial}/async/charge`;
        for (let status = 0; status !== 200;) {
          status = await poster.post(path, chargeBody(urls[n % urls.length]));
          if (status !== 200 && status !== 409) throw new Error(`abusive charge on ${serial}: ${status}`);
          if (status === 409) await settle(20);
        }
      }
    }),
  );
}

/** The abuser's requests open at its receivers, every 100 ms until stopped. */
function sampleOpen(receivers: WebhookReceiver[]): { stop: () => number[] } {
  const samples: number[] = [];
  const timer = setInterval(
    () => samples.push(receivers.reduce((sum, receiver) => sum + receiver.open, 0)),
    100,
  );
  return { stop: () => (clearInterval(timer), samples) };
}

const summary = (values: number[]) => ({
  events: values.length,
  p50: percentile(values, 50),
  p99: percentile(values, 99),
  max: values.length === 0 ? NaN : Math.max(...values),
});

/** In the child: one case, on the apps of BENCH_APPS_ROOT. */
async function measureOne(store: StoreKind): Promise<Omit<TenantCase, 'build'>> {
  const stack = await Stack.start({ store, apiEnv: { RATE_LIMIT_MAX: '1000000' } });
  const hanging = await Promise.all(
    Array.from({ length: HANGING }, () => WebhookReceiver.start(neverAnswer)),
  );
  const victim = await WebhookReceiver.start();
  const abuser = new SignedPoster(stack.apiUrl, ABUSER_TERMINALS, DEMO_MERCHANT);
  const other = new SignedPoster(stack.apiUrl, VICTIM_TERMINALS, OTHER_MERCHANT);
  try {
    const abuserSerials = await createInstantTerminals(stack.client(), ABUSER_TERMINALS);
    const victimSerials = [
      'SIM0000003',
      ...(await createInstantTerminals(stack.client().as(OTHER_MERCHANT), VICTIM_TERMINALS - 1)),
    ];
    const urls = hanging.map((receiver) => receiver.url('/hangs'));
    const abusing = Date.now();
    await chargeAll(abuser, abuserSerials, urls, ABUSIVE_CHARGES);
    const abusiveChargesSeconds = (Date.now() - abusing) / 1000;

    const paced = (path: string, seconds: number) =>
      runPaced({
        ratePerSecond: RATE,
        seconds,
        serials: victimSerials,
        send: (serial) => other.post(`/terminal/v1/${serial}/async/charge`, chargeBody(victim.url(path))),
      });
    const warmup = await paced('/warmup', WARMUP_SECONDS);
    const pid = stack.api.pid ?? 0;
    const cpuBefore = cpuTimeMs(pid);
    const attemptsBefore = hanging.reduce((sum, receiver) => sum + receiver.received.length, 0);
    const sampler = sampleOpen(hanging);
    const measured = await paced('/measured', SECONDS);
    const open = sampler.stop();
    const apiCpuPercent = ((cpuTimeMs(pid) - cpuBefore) / (SECONDS * 1000)) * 100;
    const abuserAttempts =
      hanging.reduce((sum, receiver) => sum + receiver.received.length, 0) - attemptsBefore;

    // Every event of the other merchant's charges, received: its deliveries all delivered.
    const pending = async () =>
      (
        await stack.store.rows<{ n: number | string }>(
          'api',
          "SELECT COUNT(*) AS n FROM webhook_deliveries WHERE merchant_id = 'other-merchant' AND state <> 'delivered'",
        )
      )[0].n;
    await poll(
      "the other merchant's webhooks delivered",
      async () => (Number(await pending()) === 0 ? true : undefined),
      60_000,
    ).catch(() => undefined);
    const on = (path: string) =>
      storedToReceivedMs(
        stack.store,
        victim.received.filter((received) => received.path === path),
      );
    const refusedOf = (charges: Array<{ status: number | 'failed' }>) =>
      charges.filter((charge) => charge.status !== 200).length;
    return {
      store,
      abusiveChargesSeconds,
      warmup: {
        charges: warmup.charges.length,
        refused: refusedOf(warmup.charges),
        ...summary(await on('/warmup')),
      },
      measured: {
        charges: measured.charges.length,
        refused: refusedOf(measured.charges),
        ...summary(await on('/measured')),
      },
      notDelivered: Number(await pending()),
      abuserInFlight: { mean: open.reduce((sum, n) => sum + n, 0) / open.length, max: Math.max(...open) },
      abuserAttempts,
      apiCpuPercent,
    };
  } finally {
    await Promise.all([abuser.close(), other.close()]);
    await stack.stop();
    await Promise.all([...hanging.map((receiver) => receiver.close()), victim.close()]);
  }
}

function inChild(store: StoreKind, build: Build, appsRoot: string): TenantCase {
  log(`${build.name} (${build.commit}) on ${store}`);
  const child = spawnSync(process.execPath, [__filename, CHILD, store], {
    env: { ...process.env, BENCH_APPS_ROOT: appsRoot },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    timeout: (WARMUP_SECONDS + SECONDS) * 1000 + 180_000,
  });
  const last = child.stdout.trim().split('\n').at(-1) ?? '';
  if (child.status !== 0) throw new Error(`${build.name} on ${store} failed (${child.status}): ${last}`);
  return { build, ...(JSON.parse(last) as Omit<TenantCase, 'build'>) };
}

function commitOf(root: string): string {
  const git = spawnSync('git', ['-C', root, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' });
  return git.status === 0 ? git.stdout.trim() : 'unknown';
}

async function measure(): Promise<TenantFairnessResult> {
  const started = Date.now();
  const machine = describeMachine();
  const after: Build = { name: 'this checkout', commit: commitOf(APPS_ROOT) };
  const cases: TenantCase[] = [];
  for (const store of listKnob('BENCH_STORES', 'sqlite,postgres'))
    cases.push(inChild(store, after, APPS_ROOT));
  const beforeStores = listKnob('BENCH_BEFORE_STORES', 'sqlite');
  if (beforeStores.length > 0) {
    const given = process.env.BENCH_BEFORE_ROOT;
    log(given ? `the build before fairness: ${given}` : `building ${FAIR_SINCE}~1 (once)`);
    const root = given || previousBuild(`${FAIR_SINCE}~1`);
    const before: Build = {
      name: 'before fairness between merchants',
      commit: given ? commitOf(root) : `${FAIR_SINCE}~1`,
    };
    for (const store of beforeStores) cases.push(inChild(store, before, root));
  }
  return {
    machine,
    knobs: {
      warmupSeconds: WARMUP_SECONDS,
      seconds: SECONDS,
      ratePerSecond: RATE,
      hangingReceivers: HANGING,
      abusiveCharges: ABUSIVE_CHARGES,
    },
    cases,
    runMinutes: (Date.now() - started) / 60_000,
  };
}

async function main(): Promise<void> {
  if (process.argv.includes(CHILD)) {
    const store = process.argv[process.argv.indexOf(CHILD) + 1] as StoreKind;
    process.stdout.write(`${JSON.stringify(await measureOne(store))}\n`);
    return;
  }
  const fromJson = process.env.BENCH_FROM_JSON;
  const result = fromJson
    ? (JSON.parse(readFileSync(fromJson, 'utf8')) as TenantFairnessResult)
    : await measure();
  const jsonFile =
    fromJson ?? join(REPO_ROOT, `bench/results/tenants-${result.machine.date.slice(0, 10)}.json`);
  if (!fromJson) {
    // Formatted as the checkout's Prettier would, so that `prettier --check` passes on bench/.
    const options = (await resolveConfig(jsonFile)) ?? {};
    writeFileSync(jsonFile, await format(JSON.stringify(result), { ...options, parser: 'json' }));
  }
  const section = renderTenantFairness(result);
  const benchmarks = join(REPO_ROOT, 'BENCHMARKS.md');
  writeFileSync(benchmarks, withSectionTitled(readFileSync(benchmarks, 'utf8'), SECTION_TITLE, section));
  process.stdout.write(`${section}\nbench:tenants wrote ${benchmarks} and ${jsonFile}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
