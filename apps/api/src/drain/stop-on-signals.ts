import { Logger } from '@nestjs/common';
import type { INestApplication } from '@nestjs/common';
import { RequestDrain } from './request-drain';

const SIGNALS = ['SIGTERM', 'SIGINT'] as const;

/**
 * A replica asked to stop drains (contract, "Several replicas"): it refuses new
 * requests at once (503 INT-002, which a caller or a balancer retries elsewhere), finishes what it
 * has in flight, for at most `drainTimeoutMs`, then closes: the shutdown hooks stop the webhook
 * deliveries and close the terminal links (the terminals link to another replica), and the
 * server closes. A second signal while draining stops without waiting.
 */
export function stopOnSignals(app: INestApplication, drainTimeoutMs: number): void {
  const logger = new Logger('Drain');
  const drain = app.get(RequestDrain);
  const stop = async (signal: string): Promise<void> => {
    if (drain.isDraining) {
      logger.warn(`${signal} again: stopping without waiting for ${drain.requestsInFlight} requests`);
      process.exit(1);
    }
    drain.start();
    logger.log(`${signal}: draining ${drain.requestsInFlight} requests in flight`);
    const drained = await drain.idle(drainTimeoutMs);
    if (!drained)
      logger.warn(`${drain.requestsInFlight} requests still in flight after ${drainTimeoutMs} ms`);
    await app.close();
    logger.log('stopped');
    process.exit(0);
  };
  for (const signal of SIGNALS) process.on(signal, () => void stop(signal));
}
