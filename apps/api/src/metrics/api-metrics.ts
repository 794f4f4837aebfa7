import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Unsubscribe } from '@tps/messaging';
import { ApiConfig } from '../config/api-config';
import { API_MESSAGES, type ApiMessages } from '../messages/api-messages';

/** What the outbox holds at scrape time. */
export interface OutboxBacklog {
  depth: number;
  /** Seconds since the oldest pending delivery was staged; 0 when none is pending. */
  oldestAgeSeconds: number;
}

/** From a quick answer to a terminal's longest wait (scenario 97 waits up to 60 s). */
const SECONDS_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

/**
 * The service's metrics (README, "Metrics"), each family labelled with this replica. The
 * counters are what the hot path touches: one labelled increment or observation, nothing read.
 * Gauges whose value lives elsewhere are read only when scraped, through what their owners give.
 */
@Injectable()
export class ApiMetrics implements OnModuleDestroy {
  readonly registry = new Registry();
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly requestSeconds: Histogram<'method' | 'route' | 'status'>;
  private readonly operationSeconds: Histogram<'operation' | 'outcome'>;
  private readonly attempts: Counter<'outcome'>;
  private readonly unsent: Counter;
  private readonly storageFailures: Counter;
  private readonly routed: Counter<'link'>;
  private readLinks: () => number = () => 0;
  private readOutbox: () => Promise<OutboxBacklog> = async () => ({ depth: 0, oldestAgeSeconds: 0 });
  private readonly unsubscribe: Unsubscribe;

  constructor(config: ApiConfig, @Inject(API_MESSAGES) messages: ApiMessages) {
    const registers = [this.registry];
    this.registry.setDefaultLabels({ replica: config.REPLICA_ID });
    // Event loop lag, heap, CPU and handles, as every Node service reports them.
    collectDefaultMetrics({ register: this.registry });
    this.requests = new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests answered, by method, route template and status',
      labelNames: ['method', 'route', 'status'],
      registers,
    });
    this.requestSeconds = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from a request to the end of its answer, by method, route template and status',
      labelNames: ['method', 'route', 'status'],
      buckets: SECONDS_BUCKETS,
      registers,
    });
    this.operationSeconds = new Histogram({
      name: 'tps_operation_duration_seconds',
      help: "Time from a terminal's acknowledgement of an operation to its outcome, by operation type and outcome",
      labelNames: ['operation', 'outcome'],
      buckets: SECONDS_BUCKETS,
      registers,
    });
    this.attempts = new Counter({
      name: 'tps_webhook_attempts_total',
      help: 'Webhook attempts recorded, by what follows: delivered, retrying or failed',
      labelNames: ['outcome'],
      registers,
    });
    this.unsent = new Counter({
      name: 'tps_webhook_attempts_unsent_total',
      help: "Webhook attempts recorded unsent: the merchant's webhook secret is sealed under a key SECRETS_KEY does not hold",
      registers,
    });
    this.storageFailures = new Counter({
      name: 'tps_storage_failures_total',
      help: 'Requests refused because the storage failed (503 INT-002)',
      registers,
    });
    this.routed = new Counter({
      name: 'tps_routed_requests_total',
      help: "Requests for a terminal this replica handed to the replica holding the link, by link: uplink (the terminal's) or control (its simulator's)",
      labelNames: ['link'],
      registers,
    });
    // One read of the outbox for both of its gauges: a scrape collects them together.
    let backlog: Promise<OutboxBacklog> | undefined;
    const readBacklog = (): Promise<OutboxBacklog> =>
      (backlog ??= this.readOutbox().finally(() => (backlog = undefined)));
    const linksUp: Gauge = new Gauge({
      name: 'tps_terminal_links_up',
      help: 'Terminal uplinks open on this replica',
      registers,
      collect: () => linksUp.set(this.readLinks()),
    });
    const outboxDepth: Gauge = new Gauge({
      name: 'tps_outbox_depth',
      help: 'Webhook deliveries pending in the outbox',
      registers,
      collect: async () => outboxDepth.set((await readBacklog()).depth),
    });
    const outboxAge: Gauge = new Gauge({
      name: 'tps_outbox_oldest_age_seconds',
      help: 'Age of the oldest pending webhook delivery (0 when none is pending)',
      registers,
      collect: async () => outboxAge.set((await readBacklog()).oldestAgeSeconds),
    });
    this.unsubscribe = messages.subscribe('delivery.attempt', ({ outcome }) =>
      this.attempts.inc({ outcome }),
    );
  }

  onModuleDestroy(): void {
    this.unsubscribe();
  }

  /** How many terminal links are up, read at each scrape. */
  watchLinks(read: () => number): void {
    this.readLinks = read;
  }

  /** What the outbox holds, read at each scrape. */
  watchOutbox(read: () => Promise<OutboxBacklog>): void {
    this.readOutbox = read;
  }

  requestEnded(method: string, route: string, status: number, seconds: number): void {
    const labels = { method, route, status: String(status) };
    this.requests.inc(labels);
    this.requestSeconds.observe(labels, seconds);
  }

  operationEnded(operation: string, outcome: string, seconds: number): void {
    this.operationSeconds.observe({ operation, outcome }, seconds);
  }

  /** An attempt recorded without being sent (its signing secret could not be opened). */
  attemptUnsent(): void {
    this.unsent.inc();
  }

  storageFailed(): void {
    this.storageFailures.inc();
  }

  /** A request handed through the database to the replica holding the terminal's link. */
  requestRouted(link: 'uplink' | 'control'): void {
    this.routed.inc({ link });
  }
}
