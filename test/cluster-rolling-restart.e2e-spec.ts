import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, symlinkSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  LINK_SECRET,
  freePortBase,
  poll,
  previousBuild,
  REPO_ROOT,
  SignedClient,
  TestStore,
  WebhookReceiver,
} from '@tps/testing';
import {
  ChargeLoad,
  answeredOk,
  everyOnlineOf,
  makeAccounts,
  type Attempt,
  type DrillAccount,
} from './cluster-load';
import { everyOnline, lostAnswers, type Json } from './payment-helpers';
import { Scrape } from './prometheus-scrape';
import { WebhookTally, deliveryLogProblems, undelivered } from './webhook-tally';

/** The launcher's ports: the front on a free base, replicas (+1…), shards (+50…) and metrics (+100…) after it. */
let BASE = 0;
const REPLICAS = 3;
const SHARDS = 2;
/** 2 accounts of 12 terminals, each charging again half a second after its answer: about 50 charges a second. */
const ACCOUNTS = 2;
const TERMINALS = 12;
const PAUSE_MS = 450;
/** One more account's terminals run async charges, their webhooks to a receiver: about 4 a second. */
const HOOKED_TERMINALS = 4;
const HOOKED_PAUSE_MS = 1000;
/**
 * How long, once the charges stopped, the webhooks may take to be delivered: a delivery its replica could not
 * give back is taken over once its lease ends (DELIVERY_LEASE_MS, 30 s), one written unleased by a
 * version before leases once it is 40 s overdue (contract, "Rolling deploys"); then a retry's wait.
 */
const WEBHOOKS_SETTLED_WITHIN_MS = 60_000;
/** Once the replicas are rolled, the share of Cloud-form charges handed over must fall this low… */
const ROUTED_SHARE_AFTER = 0.05;
/** …within this long, as the replicas ask the terminals linked elsewhere to link again. */
const SETTLED_WITHIN_MS = 60_000;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Only what the client is told to retry: the service's own 503 with Retry-After (nothing was taken). */
function retriedRefusal(attempt: Attempt): boolean {
  const answer = attempt.answer;
  return answer !== undefined && 'status' in answer && answer.status === 503 && answer.retryAfter === '1';
}

/**
 * What a replica of a version before the drain by design may tell its callers while it stops: a
 * refusal without Retry-After (503 TER-001) or an unknown outcome (502, 504, a cut connection),
 * each answered by the retry with the same id. Its drain is not this version's to fix.
 */
function retriedAnyway(attempt: Attempt): boolean {
  const answer = attempt.answer;
  return answer !== undefined && ('cut' in answer || [502, 503, 504].includes(answer.status));
}

/** A terminal still running its previous async charge: nothing was taken, asked again. */
function busy(attempt: Attempt): boolean {
  const answer = attempt.answer;
  return answer !== undefined && 'status' in answer && answer.status === 409 && answer.code === 'TER-003';
}

/** Whether a build drains by design (this version's drain: kept-alive connections ended once idle). */
function drainsByDesign(root: string): boolean {
  return existsSync(join(root, 'dist/apps/api/src/drain/open-connections.js'));
}

/**
 * `npm run start:cluster` deploys a new version replica by replica (README, "Run a cluster"): the
 * cluster runs the previous commit's build, the build on disk is switched to this one, and
 * `kill -HUP` restarts each replica in turn, drained first, from the build on disk. Under about 50
 * charges a second through the launcher's front, callers see nothing but 200s and Retry-After
 * 503s they retried, nothing answered is lost, and once the replicas are rolled their terminals
 * link back to where the front sends their requests: the share of handed-over charges falls to 5 %.
 * Beside them, async charges send their webhooks to a receiver that answers the first attempt of
 * each event 503, so that retries are pending as replicas drain and give them back:
 * every event the service stored is delivered (0 lost), and none is attempted again once an
 * attempt was answered 2xx (0 double attempts).
 */
describe('a rolling restart of start:cluster from the previous build to this one, under load [postgres]', () => {
  let dir: string;
  let store: TestStore;
  let launcher: ChildProcess | undefined;
  let output = '';
  let load: ChargeLoad | undefined;
  let hooked: ChargeLoad | undefined;
  let receiver: WebhookReceiver;
  const tally = new WebhookTally();

  beforeAll(async () => {
    BASE = await freePortBase([0, 1, 2, 3, 50, 51, 100, 101, 102]);
    dir = mkdtempSync(join(tmpdir(), 'tps-rolling-'));
    store = new TestStore('postgres', dir);
    receiver = await WebhookReceiver.start(tally.responder((first) => (first ? 503 : 200)));
  });

  afterAll(async () => {
    await load?.halt();
    await hooked?.halt();
    await receiver?.close();
    if (launcher !== undefined && launcher.exitCode === null) {
      const exited = new Promise((resolve) => launcher?.once('exit', resolve));
      launcher.kill('SIGTERM');
      await exited;
    }
    await store.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Handed-over requests and answered requests, summed over the replicas' metrics. */
  async function counts(): Promise<{ routed: number; answered: number }> {
    let routed = 0;
    let answered = 0;
    for (let n = 0; n < REPLICAS; n++) {
      const text = await (await fetch(`http://127.0.0.1:${BASE + 100 + n}/metrics`)).text();
      const scrape = Scrape.parse(text);
      routed += scrape.value('tps_routed_requests_total', { link: 'uplink' });
      answered += scrape.value('http_requests_total', {
        route: '/terminal/v1/:terminalSerial/sync/charge',
        status: '200',
      });
    }
    return { routed, answered };
  }

  it('callers see only 200s and retried 503s, nothing is lost, the links follow the requests again, and each webhook goes once', async () => {
    const previous = previousBuild();
    // The build the launcher starts apps from: the previous one now, this one for the roll.
    const build = join(dir, 'build');
    symlinkSync(join(previous, 'dist'), build);
    launcher = spawn(
      process.execPath,
      [
        join(REPO_ROOT, 'dist/scripts/start-cluster.js'),
        '--replicas',
        String(REPLICAS),
        '--shards',
        String(SHARDS),
      ],
      {
        cwd: dir,
        env: {
          ...process.env,
          NO_COLOR: '1',
          API_DATABASE_URL: await store.url('api'),
          API_PORT: String(BASE),
          SIMULATOR_PORT: String(BASE + 50),
          METRICS_PORT: String(BASE + 100),
          CLUSTER_BUILD_DIR: build,
          LINK_SECRET,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    launcher.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    launcher.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    for (let n = 1; n <= REPLICAS; n++) {
      await poll(
        `replica ${n}`,
        async () =>
          (await fetch(`http://127.0.0.1:${BASE + n}/health`).catch(() => undefined))?.status === 200
            ? true
            : undefined,
        180_000,
      );
    }
    const front = new SignedClient(`http://127.0.0.1:${BASE}`);
    await poll(
      'the fleet linked',
      async () => ((await front.get('/ready')).status === 200 ? true : undefined),
      60_000,
    );
    const accounts: DrillAccount[] = await makeAccounts(front, ACCOUNTS, TERMINALS);
    const [hookedAccount] = await makeAccounts(front, 1, HOOKED_TERMINALS);
    const webhooks = front.as(hookedAccount.credentials);
    // Signed deliveries carry their webhook-id (the event_id), by which the receiver counts attempts.
    expect((await webhooks.post('/sandbox/webhook-secret')).status).toBe(200);

    // From a build that drains by design, callers see only retried 503s; from an older one, its
    // replicas' drains may also tell unknown outcomes, which the retries answer: nothing is lost.
    const strict = drainsByDesign(previous);
    if (!strict) process.stdout.write(`rolling restart: ${previous} drains as a version before this one\n`);
    load = new ChargeLoad(undefined, accounts, {
      balancer: front,
      pauseMs: PAUSE_MS,
      giveUpAfterMs: 60_000,
      allowed: strict ? retriedRefusal : retriedAnyway,
    });
    hooked = new ChargeLoad(undefined, [hookedAccount], {
      balancer: front,
      pauseMs: HOOKED_PAUSE_MS,
      giveUpAfterMs: 60_000,
      allowed: (attempt) => busy(attempt) || (strict ? retriedRefusal : retriedAnyway)(attempt),
      eventsTo: receiver.url(),
    });
    load.start();
    hooked.start();
    await load.answers(200, 120_000);
    await hooked.answers(20, 120_000);

    // This commit's build on disk, then the rolling restart.
    unlinkSync(build);
    symlinkSync(join(REPO_ROOT, 'dist'), build);
    launcher.kill('SIGHUP');
    await poll(
      'the rolling restart',
      async () => (/rolling restart done/.test(output) ? true : undefined),
      900_000,
    );
    const rolledAt = Date.now();
    // Every replica runs this build now: its metrics have a family the previous one lacks.
    for (let n = 0; n < REPLICAS; n++) {
      const text = await (await fetch(`http://127.0.0.1:${BASE + 100 + n}/metrics`)).text();
      expect({ replica: n + 1, rolled: text.includes('tps_uplink_relinks_total') }).toEqual({
        replica: n + 1,
        rolled: true,
      });
    }
    // The async charges were there for the roll: their last webhooks settle during the window below.
    await hooked.stop();

    // Within a minute, a 10-second window where at most 5 % of the charges were handed over.
    let share = 1;
    let before = await counts();
    while (Date.now() - rolledAt < SETTLED_WITHIN_MS) {
      await sleep(10_000);
      const now = await counts();
      const charges = now.answered - before.answered;
      share = charges === 0 ? 1 : (now.routed - before.routed) / charges;
      before = now;
      if (share <= ROUTED_SHARE_AFTER) break;
    }
    await load.stop();

    // Every event the service stored of the async charges delivered, within the wait for a takeover.
    const settling = Date.now();
    let items: Json[] = [];
    do {
      if (items.length > 0) await sleep(1000);
      items = [...(await everyOnline(webhooks)).values()];
    } while (undelivered(items, tally).length > 0 && Date.now() - settling < WEBHOOKS_SETTLED_WITHIN_MS);
    const settledIn = Date.now() - settling;
    const lost = undelivered(items, tally);
    // The delivery log agrees; a record follows its 2xx, so one may lag a moment.
    let logProblems = await deliveryLogProblems(webhooks, items);
    if (logProblems.length > 0) {
      await sleep(2_000);
      logProblems = await deliveryLogProblems(webhooks, items);
    }
    const doubles = tally.doubles();
    const { attempts, refused } = tally.counts();
    // What the drains gave back for other replicas to take over (each replica's log at its stop).
    const givenBack = [...output.matchAll(/webhook dispatcher stopped: (\d+) deliveries stay pending/g)]
      .map((line) => Number(line[1]))
      .reduce((sum, count) => sum + count, 0);
    process.stdout.write(
      `rolling restart: ${hooked.acknowledged.size} async charges answered, ${items.length} stored, ${attempts} webhook attempts (${refused} answered 503), ${givenBack} pending given back by the drains, ${lost.length} events lost, ${doubles.length} attempted again after a 2xx; waited ${settledIn} ms for the last ones, checked in ${Date.now() - settling} ms\n`,
    );

    expect(load.unexpected).toEqual([]);
    expect(hooked.unexpected).toEqual([]);
    expect(lostAnswers(load.answered, await everyOnlineOf(front, accounts))).toEqual([]);
    expect(share).toBeLessThanOrEqual(ROUTED_SHARE_AFTER);
    const retried = load.attempts.filter((attempt) => attempt.answer !== undefined && !answeredOk(attempt));
    process.stdout.write(
      `rolling restart: ${load.answered.size} charges answered, ${retried.length} answers retried, handed over at the end ${(share * 100).toFixed(1)} %\n`,
    );
    const stored = new Set(items.map((item) => item.client_transaction_id as string));
    expect([...hooked.acknowledged].filter((id) => !stored.has(id))).toEqual([]);
    expect(lost).toEqual([]);
    expect(logProblems).toEqual([]);
    expect(doubles).toEqual([]);
    // The drill is about deliveries that were pending as their replica drained.
    expect(givenBack).toBeGreaterThan(0);

    const exited = new Promise<number | null>((resolve) => launcher?.once('exit', resolve));
    launcher.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 1_500_000);
});
