import { Tracing } from '@tps/observability';
import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { Agent } from 'undici';
import { DeliveryLeases, Dispatcher, guardedConnector, postWebhook, scaledSchedule } from '@tps/delivery';
import type { Unsubscribe } from '@tps/messaging';
import { ApiConfig, MAX_CONCURRENT_ATTEMPTS, destinationRules } from '../config/api-config';
import { API_MESSAGES, type ApiMessages } from '../messages/api-messages';
import { ApiMetrics } from '../metrics/api-metrics';
import { ListenForwarder } from '../listen/listen-forwarder';
import { DeliveryOwner } from './delivery-owner';
import { DeliveryRepository } from './delivery.repository';

/** How often a process looks for deliveries no process holds (given back, or a dead one's). */
const CLAIM_EVERY_MS = 1000;

/** Deliveries claimed in one statement, at most. */
const CLAIM_BATCH = 256;
/**
 * At a stop, how long attempts already on the wire may still be answered and recorded before they
 * are cut (contract, "Webhook delivery"): within what the drain keeps for closing.
 */
const STOP_GRACE_MS = 2000;

/** The host an attempt goes to, for its span; an event with no URL goes to its listeners only. */
const hostOf = (url: string): string => (url === '' ? 'listen' : new URL(url).host);

const timers = {
  set: (callback: () => void, delayMs: number): unknown => setTimeout(callback, delayMs),
  clear: (handle: unknown): void => clearTimeout(handle as NodeJS.Timeout),
};

/**
 * The process's webhook dispatcher: resumes its share of the outbox at start, keeps its leases
 * while it runs (DeliveryLeases), cuts it cleanly and gives its leases back at stop.
 */
@Injectable()
export class DeliveryDispatcher implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Webhooks');
  private readonly dispatcher: Dispatcher;
  private readonly leases: DeliveryLeases;
  /**
   * Every attempt connects through a connector that applies the profile's destination rules
   * again, so a name accepted at request time cannot rebind to a private address before delivery,
   * and an address accepted under other settings is refused under the current ones.
   */
  private readonly connections: Agent;
  private readonly unsubscribe: Unsubscribe;

  constructor(
    config: ApiConfig,
    store: DeliveryRepository,
    @Inject(API_MESSAGES) messages: ApiMessages,
    metrics: ApiMetrics,
    listen: ListenForwarder,
    owner: DeliveryOwner,
  ) {
    const connections = new Agent({ connect: guardedConnector(destinationRules(config)) });
    this.connections = connections;
    this.dispatcher = new Dispatcher({
      store,
      // Each attempt continues the trace of the operation that called for it (contract, "Traces");
      // each `listen` connection of the merchant gets a copy of it (contract §6.1).
      send: (post, shutdown, merchantId) =>
        Tracing.get().aroundCall(
          'webhook attempt',
          { parent: post.traceparent, attributes: { 'server.address': hostOf(post.url) } },
          (traceparent) => {
            const traced =
              traceparent === undefined ? post : { ...post, headers: { ...post.headers, traceparent } };
            return listen.send(merchantId, traced, config.WEBHOOK_TIMEOUT_MS, shutdown, (direct) =>
              postWebhook(direct, {
                timeoutMs: config.WEBHOOK_TIMEOUT_MS,
                shutdown,
                dispatcher: connections,
              }),
            );
          },
        ),
      schedule: scaledSchedule(config.WEBHOOK_RETRY_SCALE),
      now: () => Date.now(),
      random: () => Math.random(),
      timers,
      maxConcurrent: MAX_CONCURRENT_ATTEMPTS,
      maxPerDestination: config.WEBHOOK_MAX_IN_FLIGHT_PER_DESTINATION,
      stopGraceMs: STOP_GRACE_MS,
      onError: (message) => this.logger.error(message),
      // Not sent, and recorded as an attempt: the operator's to fix (contract, "Secrets at rest").
      onUnsent: (deliveryId, reason) => {
        this.logger.warn(`delivery ${deliveryId}: not sent, ${reason}; recorded as secret_unavailable`);
        metrics.attemptUnsent();
      },
      // A hanging receiver costs its owner, not the neighbours (contract, "Webhook delivery", Fairness).
      onTimedOut: ({ tenant, destination }, cut) => {
        metrics.attemptTimedOut();
        if (cut)
          this.logger.warn(
            `${destination} of merchant ${tenant} keeps timing out: one attempt in flight until it answers`,
          );
      },
      leasesHeld: () => this.leases.held(),
      onSettled: (orderKey) => this.leases.settled(orderKey),
      slots: store.sharedSlots(config.WEBHOOK_MAX_IN_FLIGHT_PER_DESTINATION),
    });
    this.leases = new DeliveryLeases({
      store,
      leaseMs: owner.leaseMs,
      claimEveryMs: Math.min(CLAIM_EVERY_MS, owner.leaseMs / 3),
      claimBatch: CLAIM_BATCH,
      now: () => Date.now(),
      timers,
      onError: (message) => this.logger.error(message),
      orderKeyOf: (delivery) => delivery.orderKey,
    });
    // A delivery staged before start() waits in its queue and goes once the outbox is resumed.
    this.unsubscribe = messages.subscribe('delivery.staged', (delivery) => this.dispatcher.add(delivery));
    metrics.watchOutbox(async () => {
      const { depth, oldestCreatedAt } = await store.backlog();
      const age = oldestCreatedAt === null ? 0 : (Date.now() - Date.parse(oldestCreatedAt)) / 1000;
      return { depth, oldestAgeSeconds: Math.max(0, age) };
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    this.leases.begin(this.dispatcher);
    await this.dispatcher.start();
    const pending = this.dispatcher.pendingCount;
    if (pending > 0) this.logger.log(`resuming ${pending} pending webhook deliveries`);
  }

  /**
   * Before the database closes: no attempt is left half recorded, and every lease is given back,
   * so that another process takes those deliveries at once instead of when the leases end.
   */
  async beforeApplicationShutdown(): Promise<void> {
    this.unsubscribe();
    await this.leases.stop();
    await this.dispatcher.stop();
    await this.connections.destroy();
    const pending = this.dispatcher.pendingCount;
    this.logger.log(`webhook dispatcher stopped: ${pending} deliveries stay pending`);
    try {
      await this.leases.release();
    } catch (error) {
      // The database is unreachable: the leases end by themselves.
      this.logger.error(`giving back ${pending} delivery leases: ${String(error)}`);
    }
  }
}
