import { Logger } from '@nestjs/common';
import type { INestApplication } from '@nestjs/common';
import { LinkHandBack } from '../link/link-hand-back';
import { RequestDrain } from './request-drain';

const SIGNALS = ['SIGTERM', 'SIGINT'] as const;

/**
 * A replica asked to stop drains (contract, "Several replicas"): it refuses new requests at once
 * (503 INT-002, which a caller or a balancer retries elsewhere), finishes what it has in flight
 * and waits until no request has come for `quietMs`; then it sends nothing new over its terminal
 * links and waits for what is under way on them (other replicas' requests among it); all of it
 * for at most `timeoutMs`. Then it closes: the shutdown hooks stop the webhook deliveries and
 * close the terminal links (the terminals link to another replica), and the server closes. A
 * second signal while draining stops without waiting.
 */
export function stopOnSignals(app: INestApplication, drain: { timeoutMs: number; quietMs: number }): void {
  const logger = new Logger('Drain');
  const requests = app.get(RequestDrain);
  const stop = async (signal: string): Promise<void> => {
    if (requests.isDraining) {
      logger.warn(`${signal} again: stopping without waiting for ${requests.requestsInFlight} requests`);
      process.exit(1);
    }
    const deadline = Date.now() + drain.timeoutMs;
    requests.start();
    logger.log(`${signal}: draining ${requests.requestsInFlight} requests in flight`);
    const drained = await requests.settled(drain.quietMs, drain.timeoutMs);
    if (!drained)
      logger.warn(
        `${requests.requestsInFlight} requests in flight, or callers still sending, after ${drain.timeoutMs} ms`,
      );
    const links = app.get(LinkHandBack);
    if (!(await links.settle(Math.max(0, deadline - Date.now()))))
      logger.warn(`${links.inFlight()} requests still under way on the terminal links; closing them`);
    await app.close();
    logger.log('stopped');
    process.exit(0);
  };
  for (const signal of SIGNALS) process.on(signal, () => void stop(signal));
}
