import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Unsubscribe } from '@tps/messaging';
import { ApiConfig } from '../config/api-config';
import { API_MESSAGES, type ApiMessages } from '../messages/api-messages';

/** What the outbox holds, as read from the database. */
export interface OutboxBacklog {
  depth: number;
  /** Seconds since the oldest pending delivery was staged; 0 when none is pending. */
  oldestAgeSeconds: number;
}

/** A route the service serves, as its requests are labelled: method and template. */
export interface ServedRoute {
  method: string;
  route: string;
}

/** From a quick answer to a terminal's longest wait (scenario 97 waits up to 60 s). */
const SECONDS_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

/**
 * The service's own 5xx answers (INT-001, INT-002 and TER-001, TER-002 and INT-003): each route
 * has their series from the start, so that a rate or an increase over them counts the first one.
 */
const SERVICE_5XX = ['500', '503', '504'];
/** A request no route matched (a drain's refusal comes before routing): its methods, for the same reason. */
const UNROUTED_METHODS = ['GET', 'POST', 'PATCH', 'DELETE'];
export const UNROUTED = '(unrouted)';
const ATTEMPT_OUTCOMES = ['delivered', 'retrying', 'failed'];
const ROUTED_LINKS = ['uplink', 'control'] as const;

/**
 * The service's metrics (README, "Metrics"), each family labelled with this replica. The
 * counters are what the hot path touches: one labelled increment or observation, nothing read.
 * A scrape reads nothing outside the process: what lives in the database is read in the
 * background (outbox-readings.ts) and kept here with the time it was read, so that /metrics
 * answers while the database is away. The outbox is the whole cluster's: only the replica that
 * reads it exports it, so that a sum over replicas counts it once.
 */
@Injectable()
export class ApiMetrics implements OnModuleDestroy {
  readonly registry = new Registry();
  /** Figures of the whole cluster, exported by the one replica that reads them. */
  private readonly cluster = new Registry();
  private clusterExported = false;
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly requestSeconds: Histogram<'method' | 'route' | 'status'>;
  private readonly operationSeconds: Histogram<'operation' | 'outcome'>;
  private readonly attempts: Counter<'outcome'>;
  private readonly unsent: Counter;
  private readonly timeouts: Counter;
  private readonly printCallbackTimeouts: Counter;
  private readonly storageFailures: Counter;
  private readonly routed: Counter<'link'>;
  private readonly relinks: Counter;
  private readonly taskFailures: Counter<'task'>;
  private readonly capRefusals: Counter<'cap'>;
  private readonly caps: Gauge<'cap'>;
  private readLinks: () => number = () => 0;
  private readOutbox: () => Promise<OutboxBacklog> = async () => ({ depth: 0, oldestAgeSeconds: 0 });
  /** The last reading of the outbox, and when it was taken (epoch ms). */
  private outbox: { backlog: OutboxBacklog; at: number } | undefined;
  private readonly unsubscribe: Unsubscribe;

  constructor(config: ApiConfig, @Inject(API_MESSAGES) messages: ApiMessages) {
    const registers = [this.registry];
    this.registry.setDefaultLabels({ replica: config.REPLICA_ID });
    this.cluster.setDefaultLabels({ replica: config.REPLICA_ID });
    // Event loop lag, heap, CPU and handles, as every Node service reports them.
    collectDefaultMetrics({ register: this.registry });
    this.requests = new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests answered, by method, route template and status (499: the caller hung up first)',
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
    this.timeouts = new Counter({
      name: 'tps_webhook_attempt_timeouts_total',
      help: 'Webhook attempts that timed out (WEBHOOK_TIMEOUT_MS); a destination timing out 3 times in a row is held to one attempt in flight',
      registers,
    });
    this.printCallbackTimeouts = new Counter({
      name: 'tps_print_callback_timeouts_total',
      help: "Print callbacks that timed out (PRINT_CALLBACK_TIMEOUT_MS); a merchant's destination timing out 3 times in a row is held to one callback in flight",
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
    this.relinks = new Counter({
      name: 'tps_uplink_relinks_total',
      help: 'Idle terminals this replica asked to link again through the balancer: their requests mostly reached another replica',
      registers,
    });
    this.taskFailures = new Counter({
      name: 'tps_background_task_failures_total',
      help: 'Turns of a background task (a sweep, a heartbeat, a reading) that failed, by task; the next turn comes anyway',
      labelNames: ['task'],
      registers,
    });
    this.capRefusals = new Counter({
      name: 'tps_cap_refusals_total',
      help: 'Requests and connections refused at a hard cap (contract §22), by cap',
      labelNames: ['cap'],
      registers,
    });
    this.caps = new Gauge({
      name: 'tps_cap',
      help: 'The value of each hard cap this replica holds to (a cap not listed is none)',
      labelNames: ['cap'],
      registers,
    });
    for (const outcome of ATTEMPT_OUTCOMES) this.attempts.inc({ outcome }, 0);
    for (const link of ROUTED_LINKS) this.routed.inc({ link }, 0);
    this.routesServed(UNROUTED_METHODS.map((method) => ({ method, route: UNROUTED })));
    const linksUp: Gauge = new Gauge({
      name: 'tps_terminal_links_up',
      help: 'Terminal uplinks open on this replica',
      registers,
      collect: () => linksUp.set(this.readLinks()),
    });
    const clusterRegisters = [this.cluster];
    const outboxDepth: Gauge = new Gauge({
      name: 'tps_outbox_depth',
      help: 'Webhook deliveries pending in the outbox, all replicas together (exported by the replica that reads it)',
      registers: clusterRegisters,
      collect: () => outboxDepth.set(this.outbox?.backlog.depth ?? 0),
    });
    const outboxAge: Gauge = new Gauge({
      name: 'tps_outbox_oldest_age_seconds',
      help: 'Age of the oldest pending webhook delivery when the outbox was read (0 when none was pending)',
      registers: clusterRegisters,
      collect: () => outboxAge.set(this.outbox?.backlog.oldestAgeSeconds ?? 0),
    });
    const readAge: Gauge = new Gauge({
      name: 'tps_outbox_read_age_seconds',
      help: 'Seconds since the outbox figures were read from the database: they are kept while it is away',
      registers: clusterRegisters,
      collect: () =>
        readAge.set(this.outbox === undefined ? 0 : Math.max(0, (Date.now() - this.outbox.at) / 1000)),
    });
    this.unsubscribe = messages.subscribe('delivery.attempt', ({ outcome }) =>
      this.attempts.inc({ outcome }),
    );
  }

  onModuleDestroy(): void {
    this.unsubscribe();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** One scrape: this replica's families, and the cluster's while this replica reads them. */
  async scrape(): Promise<string> {
    const own = await this.registry.metrics();
    if (!this.clusterExported) return own;
    return `${own.endsWith('\n') ? own : `${own}\n`}${await this.cluster.metrics()}`;
  }

  /**
   * Gives each route its series of the service's own 5xx answers at zero, so that an alert on
   * them counts the first one too (a series born at its first sample loses it to rate()).
   */
  routesServed(routes: readonly ServedRoute[]): void {
    for (const { method, route } of routes)
      for (const status of SERVICE_5XX) this.requests.inc({ method, route, status }, 0);
  }

  /** How many terminal links are up, read at each scrape (it is this process's own count). */
  watchLinks(read: () => number): void {
    this.readLinks = read;
  }

  /** How the outbox is read from the database: in the background, never by a scrape. */
  watchOutbox(read: () => Promise<OutboxBacklog>): void {
    this.readOutbox = read;
  }

  /** Reads the outbox now and keeps what it read; a failure keeps the last reading, which ages. */
  async readOutboxNow(): Promise<void> {
    const backlog = await this.readOutbox();
    this.outbox = { backlog, at: Date.now() };
  }

  /** Whether this replica exports the cluster's figures: it is the one that reads them. */
  exportClusterFigures(exported: boolean): void {
    this.clusterExported = exported;
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

  attemptTimedOut(): void {
    this.timeouts.inc();
  }

  printCallbackTimedOut(): void {
    this.printCallbackTimeouts.inc();
  }

  /** The caps in force, each with no refusal yet, so that a rate over them counts the first. */
  capsHeld(caps: Record<string, number | undefined>): void {
    for (const [cap, value] of Object.entries(caps)) {
      if (value === undefined) continue;
      this.caps.set({ cap }, value);
      this.capRefusals.inc({ cap }, 0);
    }
  }

  capRefused(cap: string): void {
    this.capRefusals.inc({ cap });
  }

  storageFailed(): void {
    this.storageFailures.inc();
  }

  /** A background task of this process: its failures' series starts at zero. */
  backgroundTaskKnown(task: string): void {
    this.taskFailures.inc({ task }, 0);
  }

  backgroundTaskFailed(task: string): void {
    this.taskFailures.inc({ task });
  }

  /** An idle terminal asked to link again, so that its link reaches where its requests go. */
  uplinkRelinked(): void {
    this.relinks.inc();
  }

  /** A request handed through the database to the replica holding the terminal's link. */
  requestRouted(link: 'uplink' | 'control'): void {
    this.routed.inc({ link });
  }
}
