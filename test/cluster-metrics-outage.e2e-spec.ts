import { spawnSync } from 'node:child_process';
import { PrometheusServer, Stack, TcpFaultProxy } from '@tps/testing';
import { ChargeLoad, makeAccounts, type Attempt } from './cluster-load';
import { Scrape } from './prometheus-scrape';
import { cutOff, restore } from './storage-faults';

/**
 * What an operator sees while the database is away (README, "Metrics"): every scrape of every
 * replica answers 200 while PostgreSQL is cut off for 5 s and then stalled for 10 s (a proxy in
 * between holds every byte), under a paced load; and the replicas' counts of the 5xx they
 * answered are exactly what the load was told. Read twice: by a scraper of the test's own, every
 * half second, and by a real Prometheus (Debian's) every second, whose `up` and counters an
 * alert would read.
 */
const REPLICAS = 2;
const TERMINALS = 8;
const PAUSE_MS = 200;
const SCRAPE_EVERY_MS = 500;
const CUT_MS = 5000;
const STALL_MS = 10_000;
const PROMETHEUS_EVERY_S = 1;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** While the database is away: not taken (503), or taken and unknown (504), never anything else. */
function allowedWhileAway(attempt: Attempt): boolean {
  const answer = attempt.answer;
  if (answer === undefined || 'cut' in answer) return false;
  return (
    (answer.status === 503 && ['INT-002', 'TER-001'].includes(answer.code ?? '')) ||
    (answer.status === 504 && ['INT-003', 'TER-002'].includes(answer.code ?? ''))
  );
}

/** The 5xx answers counted by every replica so far. */
function served5xx(scrapes: Scrape[]): number {
  return scrapes.reduce(
    (sum, scrape) =>
      sum + scrape.valueWhere('http_requests_total', (labels) => /status="5\d\d"/.test(labels)),
    0,
  );
}

describe('metrics while PostgreSQL is cut off and stalled, two replicas under load [postgres]', () => {
  let stack: Stack;
  let proxy: TcpFaultProxy;
  let database: string;
  let load: ChargeLoad | undefined;
  let prometheus: PrometheusServer | undefined;
  const metricsUrls: string[] = [];

  beforeAll(async () => {
    proxy = await TcpFaultProxy.start();
    stack = await Stack.start({
      store: 'postgres',
      replicas: REPLICAS,
      apiEnv: { METRICS_PORT: '0', METRICS_REFRESH_MS: '500' },
      // The replicas reach their database through the proxy; the simulator directly.
      routeDatabase: (app, url) => (app === 'api' ? proxy.route(url) : url),
    });
    for (const replica of stack.replicas)
      metricsUrls.push(`http://127.0.0.1:${/metrics on port (\d+)/.exec(replica.log)?.[1]}`);
    database = new URL(await stack.store.url('api')).pathname.slice(1);
    prometheus = await PrometheusServer.start(
      metricsUrls.map((url) => new URL(url).host),
      PROMETHEUS_EVERY_S,
    );
  }, 180_000);

  afterAll(async () => {
    await load?.halt();
    await prometheus?.stop();
    proxy?.release();
    if (database !== undefined) await restore(database).catch(() => undefined);
    await stack?.stop();
    await proxy?.close();
  });

  it('answers every scrape 200 throughout, and counts the 5xx the load was told', async () => {
    const accounts = await makeAccounts(stack.clientOf(0), 1, TERMINALS);
    const scrapeAll = async (): Promise<Scrape[]> =>
      Promise.all(metricsUrls.map(async (url) => Scrape.parse(await (await fetch(`${url}/metrics`)).text())));
    const before = await scrapeAll();
    await prometheus?.scrapedAgain();
    const startedAt = Date.now() / 1000;

    // Every replica scraped every half second, each answer's status kept.
    const statuses: Array<number | string> = [];
    let scraping = true;
    const scraper = (async () => {
      while (scraping) {
        for (const url of metricsUrls) {
          statuses.push(
            await fetch(`${url}/metrics`, { signal: AbortSignal.timeout(5000) }).then(
              (response) => response.status,
              (error: unknown) => String(error),
            ),
          );
        }
        await sleep(SCRAPE_EVERY_MS);
      }
    })();

    load = new ChargeLoad(stack, accounts, {
      pauseMs: PAUSE_MS,
      giveUpAfterMs: 90_000,
      allowed: allowedWhileAway,
    });
    load.start();
    await load.answers(40, 30_000);
    const scrapesBefore = statuses.length;
    const outageFrom = Date.now() / 1000;
    await cutOff(database);
    await sleep(CUT_MS);
    await restore(database);
    const duringCut = statuses.length - scrapesBefore;
    await load.answers(20, 60_000);
    proxy.stall();
    await sleep(STALL_MS);
    proxy.release();
    const outageTo = Date.now() / 1000;
    await load.answers(40, 60_000);
    await load.stop();
    scraping = false;
    await scraper;

    expect(load.unexpected).toEqual([]);
    expect(duringCut).toBeGreaterThan(REPLICAS * 4);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    const told5xx = load.attempts.filter(
      (attempt) => attempt.answer !== undefined && 'status' in attempt.answer && attempt.answer.status >= 500,
    ).length;
    expect(told5xx).toBeGreaterThan(0);
    const after = await scrapeAll();
    expect(served5xx(after) - served5xx(before)).toBe(told5xx);
    process.stdout.write(`metrics outage: ${statuses.length} scrapes, all 200; ${told5xx} answers 5xx\n`);

    // What Prometheus recorded: every replica up at every scrape, through the cut and the stall,
    // and the same count of 5xx answers from its own samples.
    if (prometheus === undefined) throw new Error('no Prometheus');
    await prometheus.scrapedAgain();
    const endedAt = Date.now() / 1000;
    const window = `${Math.ceil(endedAt - startedAt)}s`;
    const lowest = await prometheus.query(`min_over_time(up{job="tps"}[${window}])`, endedAt);
    expect(lowest.map((sample) => sample.value)).toEqual(Array(REPLICAS).fill(1));
    // Scraped all along the outage too, at its pace (a scrape that fails counts, as up 0).
    const outage = `${Math.floor(outageTo - outageFrom)}s`;
    const scrapes = await prometheus.query(`count_over_time(up{job="tps"}[${outage}])`, outageTo);
    expect(scrapes).toHaveLength(REPLICAS);
    for (const { value } of scrapes)
      expect(value).toBeGreaterThanOrEqual((CUT_MS + STALL_MS) / 1000 / PROMETHEUS_EVERY_S - 2);
    const server = prometheus;
    const counted5xx = async (at: number): Promise<number> =>
      (await server.query('sum(http_requests_total{status=~"5.."})', at))[0]?.value ?? 0;
    expect((await counted5xx(endedAt)) - (await counted5xx(startedAt))).toBe(told5xx);
    // The exposition as Prometheus' own linter reads it: nothing to say of the service's own
    // series (prom-client's default nodejs_* gauges end in _total, under the library's names).
    const exposition = await (await fetch(`${metricsUrls[0]}/metrics`)).text();
    const lint = spawnSync('promtool', ['check', 'metrics'], { input: exposition, encoding: 'utf8' });
    expect(lint.error).toBeUndefined();
    const findings = `${lint.stdout}${lint.stderr}`.split('\n').filter((line) => line.trim() !== '');
    expect(findings.filter((line) => !/^nodejs_\w+ /.test(line))).toEqual([]);
    process.stdout.write(
      `prometheus: ${scrapes.map((sample) => sample.value).join(' and ')} scrapes in the ${outage} outage, up throughout ${window}\n`,
    );
  }, 300_000);
});
