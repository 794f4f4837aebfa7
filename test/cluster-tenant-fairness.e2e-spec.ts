import {
  OTHER_MERCHANT,
  createInstantTerminals,
  neverAnswer,
  poll,
  Stack,
  WebhookReceiver,
} from '@tps/testing';
import { asyncCharge } from './cluster-load';
import { scrape } from './prometheus-scrape';

const REPLICAS = 2;
/** Each replica's attempts in flight at once (MAX_CONCURRENT_ATTEMPTS): the 64 are per process. */
const SLOTS = 64;
/**
 * The free slots a replica keeps from a merchant with this many in flight there: one
 * destination's share (WEBHOOK_MAX_IN_FLIGHT_PER_DESTINATION as shipped).
 */
const RESERVE = 8;
/**
 * Hanging destinations per replica, one charge each: more than a replica's slots, so that without
 * the reserve the abuser would take every one of them and still have some due.
 */
const DESTINATIONS = 72;
/** The abuser's terminals for the charges through each replica. */
const TERMINALS_PER_REPLICA = 8;
/**
 * Each attempt to a receiver that never answers lasts this long: well past the abuser's charges
 * and the other merchant's, so that no slot frees by a timeout during the drill.
 */
const TIMEOUT_MS = 30_000;
const SPACING_MS = 20;
const METRICS_TOKEN = 'cluster-fairness-metrics-token-01';

const settle = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The abuser's attempts to one replica's hanging destinations: arrived, and still under way. */
interface Held {
  arrived: number;
  open: number;
}

/**
 * Contract, webhook delivery, "Fairness", with several replicas ("Several replicas on one
 * PostgreSQL database"): a delivery is leased to the replica that stored its event, and each
 * replica keeps its own reserve of the last 8 of its 64 slots. A merchant whose async charges to
 * hanging receivers go through every replica thus holds 64 - 8 on each, and another merchant's
 * charge, whichever replica it goes through, has its first attempt start at once, in that
 * replica's reserve, not in a slot freed by one of the abuser's timeouts.
 */
describe('delivery fairness between merchants across replicas [postgres]', () => {
  let stack: Stack;
  /** The abuser's hanging destinations for the charges through each replica. */
  let hanging: WebhookReceiver[][] = [];
  /** The other merchant's receiver for its charge through each replica. */
  let healthy: WebhookReceiver[] = [];
  const heldOn = (replica: number): Held => ({
    arrived: hanging[replica].reduce((sum, receiver) => sum + receiver.received.length, 0),
    open: hanging[replica].reduce((sum, receiver) => sum + receiver.open, 0),
  });
  const held = (): Held[] => hanging.map((_, replica) => heldOn(replica));
  /** What the abuser held on every replica when the other merchant's first attempt via each arrived. */
  const atOthersFirst: Array<Held[] | undefined> = [];

  beforeAll(async () => {
    stack = await Stack.start({
      store: 'postgres',
      replicas: REPLICAS,
      apiEnv: { WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS), METRICS_TOKEN },
    });
    hanging = await Promise.all(
      Array.from({ length: REPLICAS }, () =>
        Promise.all(Array.from({ length: DESTINATIONS }, () => WebhookReceiver.start(neverAnswer))),
      ),
    );
    healthy = await Promise.all(
      Array.from({ length: REPLICAS }, (_, replica) =>
        WebhookReceiver.start((_request, n, response) => {
          if (n === 1) atOthersFirst[replica] = held();
          response.end();
        }),
      ),
    );
  }, 60_000);

  afterAll(async () => {
    await stack?.stop();
    await Promise.all([...hanging.flat(), ...healthy].map((receiver) => receiver.close()));
  });

  it("keeps every slot but the reserve of each replica from a merchant whose receivers hang, and starts another merchant's first attempt at once on each", async () => {
    const mostOpen = Array.from({ length: REPLICAS }, () => 0);
    const sampler = setInterval(() => {
      held().forEach(({ open }, replica) => (mostOpen[replica] = Math.max(mostOpen[replica], open)));
    }, 10);
    try {
      const serials = await createInstantTerminals(stack.client(), REPLICAS * TERMINALS_PER_REPLICA);
      // Through every replica at once, each one's charges one after another, SPACING_MS apart:
      // what the abuser holds on a replica is that replica's choice alone.
      await Promise.all(
        hanging.map(async (destinations, replica) => {
          const abuser = stack.clientOf(replica);
          const own = serials.slice(replica * TERMINALS_PER_REPLICA, (replica + 1) * TERMINALS_PER_REPLICA);
          for (const [i, destination] of destinations.entries()) {
            await asyncCharge(abuser, own[i % own.length], destination.url('/hangs'));
            await settle(SPACING_MS);
          }
        }),
      );
      await poll(
        'every slot but the reserve of each replica held by the hanging destinations',
        async () => (held().every(({ open }) => open >= SLOTS - RESERVE) ? true : undefined),
        10_000,
      );

      // One charge of the other merchant through each replica, each once the one before has had
      // its first attempt: each replica's reserve, not the other's, takes it.
      for (const [replica, receiver] of healthy.entries()) {
        await asyncCharge(stack.clientOf(replica).as(OTHER_MERCHANT), 'SIM0000003', receiver.url('/other'));
        await receiver.waitFor((received) => received.length > 0, 2 * TIMEOUT_MS);
      }

      // Each replica held its cap of the abuser's, no more, with more of them due; each of the
      // other merchant's first attempts came while every one of the abuser's, on both replicas,
      // was still under way: none had freed a slot by its timeout.
      const cap = { arrived: SLOTS - RESERVE, open: SLOTS - RESERVE };
      expect(atOthersFirst).toEqual([
        [cap, cap],
        [cap, cap],
      ]);
      expect(mostOpen).toEqual([SLOTS - RESERVE, SLOTS - RESERVE]);

      // Each of the other merchant's charges was delivered by the replica it went through (the
      // one that stored its events), and no attempt of either replica has timed out.
      const metrics = () =>
        Promise.all(
          stack.replicas.map((replica) => scrape(replica.url, { authorization: `Bearer ${METRICS_TOKEN}` })),
        );
      expect((await metrics()).map((scraped) => scraped.value('tps_webhook_attempt_timeouts_total'))).toEqual(
        [0, 0],
      );
      // Compared once every attempt received so far is recorded: a later event may be under way.
      const settled = await poll(
        "the other merchant's attempts recorded",
        async () => {
          const received = healthy.map((receiver) => receiver.received.length);
          const delivered = (await metrics()).map((scraped) =>
            scraped.value('tps_webhook_attempts_total', { outcome: 'delivered' }),
          );
          const sum = (counts: number[]) => counts.reduce((total, count) => total + count, 0);
          return sum(delivered) === sum(received) ? { delivered, received } : undefined;
        },
        10_000,
      );
      expect(settled.delivered).toEqual(settled.received);
    } finally {
      clearInterval(sampler);
    }
  }, 120_000);
});
