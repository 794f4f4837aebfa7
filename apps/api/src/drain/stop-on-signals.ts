import { Logger } from '@nestjs/common';
import type { INestApplication } from '@nestjs/common';
import { LinkHandBack } from '../link/link-hand-back';
import { ReplicaRouting } from '../routing/replica-routing';
import { OpenConnections } from './open-connections';
import { RequestDrain } from './request-drain';

const SIGNALS = ['SIGTERM', 'SIGINT'] as const;

/**
 * How long a connection must have been idle before a stopping replica ends it: past the
 * `Keep-Alive: timeout=5` its answers advertise (http/idle-connections.ts), so that its client
 * has let go of it and sends nothing more on it.
 */
const LET_GO_IDLE_MS = 6000;
/** After the drain's cut, how long what was cut has to be answered before it is answered 504. */
const CUT_ANSWER_MS = 1000;

/** The part of the drain's time kept for the close itself: links, deliveries, pools. */
function closeReserveMs(timeoutMs: number): number {
  return Math.min(3000, Math.floor(timeoutMs / 5));
}

/**
 * A replica asked to stop drains (contract, "Several replicas"), and is gone within
 * DRAIN_TIMEOUT_MS by design:
 * 1. It refuses new requests at once (503 INT-002, which a caller or a balancer retries
 *    elsewhere), and every answer from now on closes its connection after it (`Connection: close`).
 * 2. It finishes what it has in flight and waits until no request has come for `quietMs`.
 * 3. It hands its links back: stored as their holder no more, each closed once nothing is under
 *    way on it, so that its terminals link again, to another replica.
 * 4. At the cut (the timeout less the close's reserve) whatever still runs is cut: the links
 *    close (an operation waiting on one gets 504 TER-002), requests handed to another replica
 *    stop waiting, and anything still unanswered a moment later is answered 504 TER-002: each an
 *    unknown outcome that the same request asked again (same client_transaction_id) answers.
 * 5. It stops listening, then ends each kept-alive connection once its client has let go of it,
 *    never under a request.
 * 6. The shutdown hooks stop the background work, then give back the webhook leases, then close
 *    the pools, after their last user. A second signal stops at once.
 */
export function stopOnSignals(app: INestApplication, drain: { timeoutMs: number; quietMs: number }): void {
  const logger = new Logger('Drain');
  const requests = app.get(RequestDrain);
  const stop = async (signal: string): Promise<void> => {
    if (requests.isDraining) {
      logger.warn(`${signal} again: stopping without waiting for ${requests.requestsInFlight} requests`);
      process.exit(1);
    }
    const started = Date.now();
    const deadline = started + drain.timeoutMs;
    const cutAt = deadline - closeReserveMs(drain.timeoutMs);
    const left = (until: number): number => Math.max(0, until - Date.now());
    // Whatever hangs (a database that does not answer), the process is gone within its bound.
    setTimeout(() => {
      logger.warn(`not stopped within ${drain.timeoutMs} ms; exiting`);
      process.exit(1);
    }, drain.timeoutMs).unref();
    requests.start();
    logger.log(`${signal}: draining ${requests.requestsInFlight} requests in flight`);
    const drained = await requests.settled(drain.quietMs, left(cutAt));
    const links = app.get(LinkHandBack);
    const linksSettled = await links.settle(left(cutAt));
    if (!drained || !linksSettled) {
      logger.warn(
        `at the drain's cut: ${requests.requestsInFlight} requests in flight, ${links.inFlight()} on the terminal links; cutting them (504 TER-002)`,
      );
      links.cut();
      app.get(ReplicaRouting).cluster?.router.giveUp();
      if (!(await requests.idle(Math.min(CUT_ANSWER_MS, left(deadline) / 2)))) {
        logger.warn(`${requests.answerUnknown()} requests answered 504 TER-002 at the drain's deadline`);
      }
    }
    const connections = app.get(OpenConnections);
    connections.stopListening();
    if (!(await connections.ended(LET_GO_IDLE_MS, left(cutAt))))
      logger.warn(`${connections.count} connections still open; closing them`);
    const closed = await Promise.race([
      app.close().then(() => true),
      new Promise<false>((resolve) => setTimeout(() => resolve(false), left(deadline))),
    ]);
    if (!closed) logger.warn(`the close did not finish within ${drain.timeoutMs} ms; exiting`);
    else logger.log(`stopped in ${Date.now() - started} ms`);
    process.exit(closed ? 0 : 1);
  };
  for (const signal of SIGNALS) process.on(signal, () => void stop(signal));
}
