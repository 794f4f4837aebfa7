import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { signRequest } from '@tps/contracts';
import {
  AppProcess,
  HaproxyBalancer,
  poll,
  scenarioBody,
  SignedClient,
  Stack,
  type Credentials,
} from '@tps/testing';
import {
  ChargeLoad,
  describeAttempt,
  everyOnlineOf,
  makeAccounts,
  type Attempt,
  type DrillAccount,
} from './cluster-load';
import { amountOf, lostAnswers, recorded, type Json } from './payment-helpers';
import { scrape } from './prometheus-scrape';
import { startShard } from './simulator-shard';
import { cutOff, restore } from './storage-faults';

/**
 * The `cluster` profile of docker-compose.yml with its own load balancer: HAProxy running
 * deploy/haproxy-cluster.cfg (only the addresses changed) in front of two API replicas on one
 * PostgreSQL database, and two simulator shards whose links go through it, as compose wires them.
 */
const SHARES = 2;
const TERMINALS = 8;
/** The service's own 503s: "not taken, nothing moved" (contract, "Answers a caller can act on"). */
const NOT_TAKEN = ['TER-001', 'INT-002'];

const METRICS_TOKEN = 'cluster-balancer-metrics-token';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function notTaken(attempt: Attempt): boolean {
  const answer = attempt.answer;
  return (
    answer !== undefined &&
    'status' in answer &&
    answer.status === 503 &&
    NOT_TAKEN.includes(answer.code ?? '')
  );
}

describe('the compose profile `cluster` behind its HAProxy configuration [postgres]', () => {
  let stack: Stack;
  let balancer: HaproxyBalancer;
  let client: SignedClient;
  let accounts: DrillAccount[];
  /** The replica processes as api-1 and api-2 are now (a deploy replaces them on their ports). */
  const current: AppProcess[] = [];
  const shards: AppProcess[] = [];
  let load: ChargeLoad | undefined;

  beforeAll(async () => {
    stack = await Stack.start({
      store: 'postgres',
      replicas: 2,
      withoutSimulator: true,
      apiEnv: {
        FLEET_SHARES: String(SHARES),
        // Short, so that a charge the killed replica stored but never sent is answered soon.
        TERMINAL_REPLY_TIMEOUT_MS: '5000',
        // As compose's `uniquelocal`: the balancer, on the same host here, is trusted.
        TRUSTED_PROXIES: 'loopback',
        // Each replica's count of requests it handed over, read on its own port.
        METRICS_TOKEN,
      },
    });
    current.push(...stack.replicas);
    balancer = await HaproxyBalancer.start(
      stack.dir,
      current.map((replica) => replica.port),
    );
    await balancer.waitFor('api-1', 'UP');
    await balancer.waitFor('api-2', 'UP');
    for (let k = 1; k <= SHARES; k++) shards.push(await startShard(stack, `shard-${k}`, balancer.url));
    client = new SignedClient(balancer.url);
    accounts = await makeAccounts(client, 1, TERMINALS);
    await stack.waitReady(0, 20_000);
    await stack.waitReady(1, 20_000);
  }, 90_000);

  // A drill that failed half-way leaves no load running into the next one.
  afterEach(async () => {
    await load?.halt();
    load = undefined;
  });

  afterAll(async () => {
    for (const shard of shards) await shard.stop();
    await balancer?.stop();
    for (const replica of current) await replica.stop();
    await stack?.stop();
  });

  function as(account: DrillAccount): SignedClient {
    return client.as(account.credentials);
  }

  /** Sync charges on every terminal, through the balancer, each asked again until answered 200. */
  function loadThroughBalancer(allowed: (attempt: Attempt) => boolean, pauseMs = 100): ChargeLoad {
    const charges = new ChargeLoad(stack, accounts, {
      balancer: client,
      pauseMs,
      giveUpAfterMs: 60_000,
      allowed,
    });
    load = charges;
    charges.start();
    return charges;
  }

  /** Stops the load: every answer was one the drill allows, and every charge answered 200 is stored. */
  async function finish(charges: ChargeLoad): Promise<void> {
    await charges.stop();
    expect(charges.unexpected).toEqual([]);
    expect(lostAnswers(charges.answered, await everyOnlineOf(client, accounts))).toEqual([]);
  }

  /**
   * A signed POST sent on a connection of its own, as the first request on it. HAProxy answers
   * 502 only then: when a request that came after others on a kept-alive connection loses its
   * replica, it closes that connection instead, which HTTP lets a client take as "ask again".
   */
  function firstOnItsConnection(
    credentials: Credentials,
    path: string,
    raw: string,
    requestId: string,
  ): Promise<{ status: number; requestId: string | undefined; body: Json }> {
    const signed = signRequest({ ...credentials, method: 'POST', path, body: raw });
    return new Promise((resolve, reject) => {
      const sent = request(
        `${balancer.url}${path}`,
        {
          method: 'POST',
          agent: false,
          headers: {
            authorization: signed.authorization,
            timestamp: signed.timestamp,
            'content-type': 'application/json',
            'request-id': requestId,
          },
        },
        (response) => {
          let text = '';
          response.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
          response.on('end', () => {
            try {
              resolve({
                status: response.statusCode ?? 0,
                requestId: response.headers['request-id'] as string | undefined,
                body: JSON.parse(text) as Json,
              });
            } catch (error) {
              reject(new Error(`not JSON (${String(error)}): ${text.slice(0, 200)}`));
            }
          });
          response.on('error', reject);
        },
      );
      sent.on('error', reject);
      sent.end(raw);
    });
  }

  it('links the terminals through the balancer to both replicas, and reaches each terminal from it', async () => {
    const holders = await stack.store.rows<{ replica_id: string }>(
      'api',
      'SELECT DISTINCT replica_id FROM terminal_uplinks',
    );
    expect(holders).toHaveLength(2);
    for (const serial of accounts[0].serials) {
      const answer = await as(accounts[0]).post<Json>(`/terminal/v1/${serial}/sync/charge`, {
        amount: amountOf(10_000),
        client_transaction_id: randomUUID(),
      });
      expect({ serial, status: answer.status, approved: answer.body.approved }).toEqual({
        serial,
        status: 200,
        approved: true,
      });
    }
  });

  /** Requests the replicas have handed to each other through the database so far, all replicas. */
  async function routedSoFar(): Promise<number> {
    let routed = 0;
    for (const replica of current) {
      const now = await scrape(replica.url, { authorization: `Bearer ${METRICS_TOKEN}` });
      routed += now.value('tps_routed_requests_total');
    }
    return routed;
  }

  it("sends a terminal's own requests to the replica that holds its link: none is handed over", async () => {
    const account = as(accounts[0]);
    const before = await routedSoFar();
    for (const serial of accounts[0].serials) {
      for (let n = 0; n < 3; n++) {
        const answer = await account.post<Json>(`/terminal/v1/${serial}/sync/charge`, {
          amount: amountOf(10_000),
          client_transaction_id: randomUUID(),
        });
        expect({ serial, status: answer.status }).toEqual({ serial, status: 200 });
      }
    }
    expect(await routedSoFar()).toBe(before);
    // Asked of each replica directly, as a balancer that ignores the serial would, half are.
    for (const serial of accounts[0].serials) {
      for (const replica of current) {
        const answer = await new SignedClient(replica.url, accounts[0].credentials).post<Json>(
          `/terminal/v1/${serial}/sync/charge`,
          { amount: amountOf(10_000), client_transaction_id: randomUUID() },
        );
        expect({ serial, status: answer.status }).toEqual({ serial, status: 200 });
      }
    }
    expect(await routedSoFar()).toBe(before + accounts[0].serials.length);
  });

  it("answers an offline terminal's 503 TER-001 and keeps both replicas in the rotation", async () => {
    const [offline, ...online] = accounts[0].serials;
    const account: Credentials = accounts[0].credentials;
    expect((await client.as(account).post(`/sandbox/terminals/${offline}/offline`)).status).toBe(200);
    try {
      for (let n = 0; n < 6; n++) {
        const answer = await client.as(account).post<Json>(`/terminal/v1/${offline}/sync/charge`, {
          amount: amountOf(10_000),
          client_transaction_id: randomUUID(),
        });
        expect({ status: answer.status, code: answer.body.code }).toEqual({ status: 503, code: 'TER-001' });
      }
      // A terminal that is offline is no replica's fault: neither left the rotation.
      expect([...(await balancer.states()).values()]).toEqual(['UP', 'UP']);
      const answers = await Promise.all(
        online.map((serial) =>
          client.as(account).post<Json>(`/terminal/v1/${serial}/sync/charge`, {
            amount: amountOf(10_000),
            client_transaction_id: randomUUID(),
          }),
        ),
      );
      expect(answers.map((answer) => answer.status)).toEqual(online.map(() => 200));
    } finally {
      expect((await client.as(account).post(`/sandbox/terminals/${offline}/online`)).status).toBe(200);
      await stack.waitReady(0, 20_000);
    }
  });

  it('tells the replicas the address it saw the caller at, never one the caller wrote', async () => {
    const [serial] = accounts[0].serials;
    const account = client.as(accounts[0].credentials);
    const set = await account.send<Json>(
      'PATCH',
      `/sandbox/terminals/${serial}`,
      JSON.stringify({ cardholder: 'manual' }),
      { 'x-forwarded-for': '203.0.113.7' },
    );
    try {
      expect(set.status).toBe(200);
      expect(set.body.cardholderManual).toMatchObject({ setFrom: '127.0.0.1' });
    } finally {
      expect((await account.patch(`/sandbox/terminals/${serial}`, { cardholder: 'auto' })).status).toBe(200);
    }
  });

  it("PostgreSQL away under load: the replicas leave the rotation and come back by themselves; callers get the contract's 503, the balancer's own included", async () => {
    const database = new URL(await stack.store.url('api')).pathname.slice(1);
    // Not taken (503 INT-002, TER-001), or taken and unknown (504), as from one replica (§19).
    const charges = loadThroughBalancer((attempt) => {
      const answer = attempt.answer;
      if (answer === undefined || 'cut' in answer) return false;
      return (
        notTaken(attempt) || (answer.status === 504 && ['INT-003', 'TER-002'].includes(answer.code ?? ''))
      );
    });
    await charges.answers(30, 30_000);
    await cutOff(database);
    try {
      await balancer.waitFor('api-1', 'DOWN');
      await balancer.waitFor('api-2', 'DOWN');
      // No replica in the rotation: the balancer answers itself, in the contract's shape.
      const [serial] = accounts[0].serials;
      const refused = await client
        .as(accounts[0].credentials)
        .send<Json>(
          'POST',
          `/terminal/v1/${serial}/sync/charge`,
          JSON.stringify({ amount: amountOf(10_000), client_transaction_id: randomUUID() }),
          { 'request-id': 'outage-probe-1' },
        );
      expect({
        status: refused.status,
        body: refused.body,
        retryAfter: refused.headers.get('retry-after'),
        requestId: refused.headers.get('request-id'),
      }).toEqual({
        status: 503,
        body: {
          type: 'INTERNAL',
          code: 'INT-002',
          message: expect.any(String),
          request_id: 'outage-probe-1',
        },
        retryAfter: '1',
        requestId: 'outage-probe-1',
      });
    } finally {
      await restore(database);
    }
    await balancer.waitFor('api-1', 'UP', 20_000);
    await balancer.waitFor('api-2', 'UP', 20_000);
    await charges.answers(30, 30_000);
    await finish(charges);
  }, 120_000);

  it('deploys replica by replica under load: each drains, leaves the rotation and comes back; callers see only 200s and retried 503s', async () => {
    const charges = loadThroughBalancer(notTaken);
    await charges.answers(40, 30_000);
    for (const [n, name] of ['api-2', 'api-1'].map(
      (server) => [Number(server.slice(4)) - 1, server] as const,
    )) {
      const port = current[n].port;
      // SIGTERM, as compose stops a container: the replica drains and exits by itself.
      expect(await current[n].terminate()).toBe(0);
      await balancer.waitFor(name, 'DOWN');
      await charges.answers(20, 30_000);
      // The new version, at the same address.
      current[n] = await stack.startReplica({ PORT: String(port) });
      await balancer.waitFor(name, 'UP', 15_000);
      await charges.answers(20, 30_000);
    }
    await finish(charges);
  }, 180_000);

  it("a replica that goes away while answering: its caller gets the balancer's 502 INT-005 in the contract's shape, and a same-id retry answers the outcome", async () => {
    const account = accounts[0];
    const [serial] = account.serials;
    // Scenario 97: the terminal waits for the cardholder, so the answer is under way for as long
    // as the drill needs.
    const body = scenarioBody('97');
    const charge = `/terminal/v1/${serial}/sync/charge`;
    const pending = firstOnItsConnection(account.credentials, charge, JSON.stringify(body), 'lost-answer-1');
    // The replica answering it, as the balancer's sessions say: the one POST under way (terminals
    // relinking meanwhile change how many connections each replica has, so counts cannot tell).
    const answering = await poll(
      'the charge to reach a replica',
      async () => {
        const replicas = await balancer.postsAwaitingAnswer();
        return replicas.length === 1 && replicas[0].startsWith('api-') ? replicas[0] : undefined;
      },
      3_000,
    );
    await recorded(stack, body.client_transaction_id, 3_000);
    const n = Number(answering.slice(4)) - 1;
    const port = current[n].port;
    await current[n].kill();
    try {
      const lost = await pending;
      expect({ status: lost.status, body: lost.body, requestId: lost.requestId }).toEqual({
        status: 502,
        body: { type: 'INTERNAL', code: 'INT-005', message: expect.any(String), request_id: 'lost-answer-1' },
        requestId: 'lost-answer-1',
      });
      await balancer.waitFor(answering, 'DOWN');
      // The terminal still waits for its cardholder, once linked again to the other replica.
      await poll(
        'the card to be presented',
        async () => {
          const card = await as(account).post<Json>(`/sandbox/terminals/${serial}/card`, {
            action: 'present',
            reading_type: 'CHIP',
          });
          return card.status === 200 ? true : undefined;
        },
        15_000,
      );
      const retried = await poll(
        'the retry to answer the outcome',
        async () => {
          const answer = await as(account).post<Json>(charge, body);
          return answer.status === 200 ? answer : undefined;
        },
        20_000,
      );
      expect(retried.body.approved).toBe(true);
    } finally {
      current[n] = await stack.startReplica({ PORT: String(port) });
      await balancer.waitFor(answering, 'UP', 15_000);
    }
  }, 90_000);

  it('a replica killed under load: callers of charges under way at the kill are told "unknown", and a retry answers the outcome; nothing answered is lost', async () => {
    let killedAt = Number.POSITIVE_INFINITY;
    const charges = loadThroughBalancer((attempt) => {
      const answer = attempt.answer;
      if (answer === undefined || notTaken(attempt)) return answer !== undefined;
      // Under way at the kill: the balancer's 502 INT-005, or the caller's connection closed (it
      // had been sent on a connection the balancer reused), or 504 TER-002 for a charge whose
      // terminal's link the killed replica held. Each means "unknown": ask again, same id.
      const unknown =
        'cut' in answer ||
        (answer.status === 502 && answer.code === 'INT-005') ||
        (answer.status === 504 && answer.code === 'TER-002');
      return unknown && attempt.at < killedAt;
    }, 50);
    await charges.answers(40, 30_000);
    const busyBy = Date.now() + 10_000;
    while (charges.inFlight.size < 4 && Date.now() < busyBy) await sleep(2);
    const underWay = [...charges.inFlight];
    await current[0].kill();
    killedAt = Date.now();
    await balancer.waitFor('api-1', 'DOWN');
    await charges.answers(60, 30_000);
    await finish(charges);
    expect(underWay.filter((attempt) => !charges.answered.has(attempt.id)).map(describeAttempt)).toEqual([]);
  }, 120_000);
});
