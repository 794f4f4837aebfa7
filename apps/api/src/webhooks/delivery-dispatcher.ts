import {
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { Dispatcher, postWebhook, scaledSchedule, type PendingDelivery } from '@tps/delivery';
import { ApiConfig } from '../config/api-config';
import { DeliveryRepository } from './delivery.repository';

/** Attempts in flight at once, across all merchants: a bound on sockets, not on throughput. */
const MAX_CONCURRENT_ATTEMPTS = 64;

/** The service's one webhook dispatcher: resumes the outbox at start, cuts it cleanly at stop. */
@Injectable()
export class DeliveryDispatcher implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Webhooks');
  private readonly dispatcher: Dispatcher;

  constructor(config: ApiConfig, store: DeliveryRepository) {
    this.dispatcher = new Dispatcher({
      store,
      send: (post, shutdown) => postWebhook(post, { timeoutMs: config.WEBHOOK_TIMEOUT_MS, shutdown }),
      schedule: scaledSchedule(config.WEBHOOK_RETRY_SCALE),
      now: () => Date.now(),
      random: () => Math.random(),
      timers: {
        set: (callback, delayMs) => setTimeout(callback, delayMs),
        clear: (handle) => clearTimeout(handle as NodeJS.Timeout),
      },
      maxConcurrent: MAX_CONCURRENT_ATTEMPTS,
      onError: (message) => this.logger.error(message),
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.dispatcher.start();
    const pending = this.dispatcher.pendingCount;
    if (pending > 0) this.logger.log(`resuming ${pending} pending webhook deliveries`);
  }

  /** Before the database closes: no attempt is left half recorded. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.dispatcher.stop();
    this.logger.log(`webhook dispatcher stopped: ${this.dispatcher.pendingCount} deliveries stay pending`);
  }

  /** Sends a delivery the outbox has just saved, at once. */
  add(delivery: PendingDelivery): void {
    this.dispatcher.add(delivery);
  }
}
