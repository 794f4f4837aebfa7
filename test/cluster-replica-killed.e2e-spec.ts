import { Stack, WebhookReceiver, neverAnswer, poll, type Credentials } from '@tps/testing';
import {
  ChargeLoad,
  answeredOk,
  asyncCharge,
  describeAttempt,
  everyOnlineOf,
  makeAccounts,
  receivedInOrder,
  type Attempt,
} from './cluster-load';
import { lostAnswers, type Json } from './payment-helpers';

/**
 * SIGKILL of one API replica under load, at a fleet's size (contract, "Several API replicas on one
 * PostgreSQL database"): three replicas, a hundred sandbox terminals charging paced, the simulator
 * linked to the replica killed.
 */
const REPLICAS = 3;
const ACCOUNTS = 5;
/** The most terminals one sandbox account has: five of them make the fleet of a hundred. */
const TERMINALS_PER_ACCOUNT = 20;
/** Terminals of the first account that run async charges with webhooks instead of the load. */
const WITH_WEBHOOKS = 4;
const LEASE_MS = 3000;
const LIFECYCLE = ['CARD_PRESENTED', 'APPROVAL_REQUESTED', 'APPROVAL'];
/** The answers a charge may meet while a replica dies: each means "ask again with the same id". */
const RETRIED: Record<number, string[]> = { 503: ['TER-001'], 504: ['TER-002'], 409: ['TER-003', 'TER-004'] };

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * How long after `since` each terminal's uplink was first stored as held by a replica other than
 * `dead`, sorted; polled until the whole fleet is there or `timeoutMs` passed.
 */
async function relinkTimes(stack: Stack, dead: string, fleet: number, since: number, timeoutMs: number) {
  const seen = new Map<string, number>();
  while (seen.size < fleet && Date.now() < since + timeoutMs) {
    const rows = await stack.store.rows<{ serial_number: string }>(
      'api',
      'SELECT serial_number FROM terminal_uplinks WHERE replica_id <> ?',
      [dead],
    );
    const at = Date.now() - since;
    for (const row of rows) if (!seen.has(row.serial_number)) seen.set(row.serial_number, at);
    await sleep(50);
  }
  return [...seen.values()].sort((a, b) => a - b);
}

/** An attempt under way when its replica was killed may end only in these: each says "ask again". */
function endedAsAllowed(attempt: Attempt): boolean {
  const answer = attempt.answer;
  if (answer === undefined) return false;
  // The killed replica's own callers: their connection is cut (a load balancer answers 502).
  if ('cut' in answer) return attempt.replica === 0;
  return (
    answeredOk(attempt) ||
    (answer.status === 504 && answer.code === 'TER-002') ||
    (answer.status === 503 && answer.code === 'TER-001')
  );
}

describe('a replica killed under load, a fleet of a hundred [postgres]', () => {
  let stack: Stack;
  let receiver: WebhookReceiver;
  let load: ChargeLoad | undefined;

  beforeAll(async () => {
    stack = await Stack.start({
      store: 'postgres',
      replicas: REPLICAS,
      apiEnv: {
        // Short, so that a charge whose terminal never took it is answered soon.
        TERMINAL_REPLY_TIMEOUT_MS: '5000',
        // Short, so that the killed replica's deliveries are taken over within the drill.
        DELIVERY_LEASE_MS: String(LEASE_MS),
      },
    });
    receiver = await WebhookReceiver.start();
  }, 60_000);

  afterAll(async () => {
    await load?.halt();
    await stack?.stop();
    await receiver?.close();
  });

  it('loses no answered charge, links the fleet again within 3 s (p99), and its deliveries are taken over in order', async () => {
    // Made on the replica that holds the simulator's control link, as the terminals link there.
    const accounts = await makeAccounts(stack.clientOf(0), ACCOUNTS, TERMINALS_PER_ACCOUNT);
    const fleet = accounts.reduce((sum, account) => sum + account.serials.length, 0) + 3;
    const webhooks: Credentials = accounts[0].credentials;
    const hooked = accounts[0].serials.slice(0, WITH_WEBHOOKS);
    const loaded = accounts.map((account, n) =>
      n === 0 ? { ...account, serials: account.serials.slice(WITH_WEBHOOKS) } : account,
    );
    // Signed deliveries carry their webhook-id, which a takeover keeps.
    expect((await stack.clientOf(1).as(webhooks).post('/sandbox/webhook-secret')).status).toBe(200);

    const [holder, ...others] = await stack.store.rows<{ replica_id: string }>(
      'api',
      'SELECT DISTINCT replica_id FROM terminal_uplinks',
    );
    // The simulator linked every terminal to the first replica, the one killed.
    expect(others).toEqual([]);
    const dead = holder.replica_id;

    const charges = new ChargeLoad(stack, loaded, {
      pauseMs: 1000,
      giveUpAfterMs: 30_000,
      allowed: (attempt) => {
        const answer = attempt.answer;
        if (answer === undefined) return false;
        if ('cut' in answer) return attempt.replica === 0;
        return RETRIED[answer.status]?.includes(answer.code ?? '') === true;
      },
    });
    load = charges;
    charges.start();
    await charges.answers(100, 60_000);

    // The webhooks' receiver holds every request: the killed replica has deliveries under way.
    receiver.respondWith(neverAnswer);
    const client = stack.clientOf(1).as(webhooks);
    const ids = await Promise.all(hooked.map((serial) => asyncCharge(client, serial, receiver.url('/held'))));
    await receiver.waitFor(() => ids.every((id) => receivedInOrder(receiver, id).length === 1));

    // Killed with charges under way: their callers are the ones the drill is about.
    const busyBy = Date.now() + 10_000;
    while (charges.inFlight.size < 5 && Date.now() < busyBy) await sleep(2);
    const underWay = [...charges.inFlight];
    charges.live.splice(charges.live.indexOf(0), 1);
    await stack.replicas[0].kill();
    const killedAt = Date.now();
    receiver.respondWith((_request, _n, response) => response.end());

    const relinked = await relinkTimes(stack, dead, fleet, killedAt, 15_000);
    await charges.answers(100, 60_000);
    await receiver.waitFor(
      () => ids.every((id) => receivedInOrder(receiver, id).some(([status]) => status === 'APPROVAL')),
      LEASE_MS + 15_000,
    );
    await charges.stop();

    expect(charges.unexpected).toEqual([]);
    // Linked again: the whole fleet, 99 % of it within 3 s of the kill.
    expect(relinked).toHaveLength(fleet);
    expect(relinked[Math.ceil(relinked.length * 0.99) - 1]).toBeLessThanOrEqual(3000);

    // What was under way at the kill: cut, 504 TER-002 or 503 TER-001, and its id answered by a retry.
    expect(underWay.filter((attempt) => !endedAsAllowed(attempt)).map(describeAttempt)).toEqual([]);
    expect(underWay.filter((attempt) => !charges.answered.has(attempt.id)).map(describeAttempt)).toEqual([]);
    expect(underWay.filter((attempt) => !answeredOk(attempt)).length).toBeGreaterThan(0);

    await stack.waitReady(1);
    const online = await everyOnlineOf(stack.clientOf(1), accounts);
    expect(lostAnswers(charges.answered, online)).toEqual([]);

    // Each transaction's webhooks as stored, in order, each with its event's webhook-id; the one
    // the kill cut went again with the same webhook-id, from a replica that took it over.
    for (const id of ids) {
      const rows = await poll(
        `the deliveries of ${id} recorded`,
        async () => {
          const stored = await stack.store.rows<{
            event_status: string;
            event_id: string;
            state: string;
            lease_owner: string;
          }>(
            'api',
            'SELECT event_status, event_id, state, lease_owner FROM webhook_deliveries WHERE client_transaction_id = ? ORDER BY position',
            [id],
          );
          return stored.every((row) => row.state === 'delivered') ? stored : undefined;
        },
        5000,
      );
      expect(rows.map((row) => row.event_status)).toEqual(LIFECYCLE);
      expect(receivedInOrder(receiver, id)).toEqual(rows.map((row) => [row.event_status, row.event_id]));
      expect(rows.filter((row) => row.lease_owner.split('/')[0] === dead)).toEqual([]);
      const first = receiver.received.filter(
        (request) => (request.body as Json).client_transaction_id === id,
      );
      expect(first[1].headers['webhook-id']).toBe(first[0].headers['webhook-id']);
    }
  }, 240_000);
});
