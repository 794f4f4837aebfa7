import { Tracing } from '@tps/observability';
import type { PrintCallbackRecord } from '@tps/contracts';
import { UnknownSecretKeyError } from '@tps/database';
import {
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import {
  AttemptAbandoned,
  recordLaterListeners,
  DeliveryLeases,
  TenantSlots,
  destinationOf,
  printWebhookPayload,
  sendPrintCallback,
  type LeasedDispatcher,
} from '@tps/delivery';
import { ApiConfig, MAX_CONCURRENT_ATTEMPTS, destinationRules } from '../config/api-config';
import { ListenForwarder, type CopiedCallback } from '../listen/listen-forwarder';
import { ApiMetrics } from '../metrics/api-metrics';
import { listenerRecord } from '../listen/listener-record';
import { DeliveryOwner } from '../webhooks/delivery-owner';
import type { PrintJobEntity } from './print-job.entity';
import { PrintJobRepository } from './print-job.repository';
import { ServiceListening } from '../http/service-listening';

/** How often a process looks for callbacks no process holds (given back, or a dead one's). */
const CLAIM_EVERY_MS = 1000;

/** Callbacks claimed in one statement, at most. */
const CLAIM_BATCH = 64;

/**
 * The print webhook (contract §6: one POST, 15 s timeout, no retry, the outcome logged), sent by
 * the service once the job's result is stored, so that polling already shows what the callback
 * tells (contract §13). Signed like transaction webhooks when the merchant has a secret, and
 * checked at connect time against the profile's destination rules. Leased like webhook
 * deliveries: the process that stores the result makes the attempt, and a dead process's
 * attempts are made by another once their leases end. Attempts in flight have slots of their own,
 * as many as webhook attempts, shared out per merchant first, then per destination (contract,
 * "Webhook delivery", Fairness): a callback waiting for one is not yet its attempt.
 */
@Injectable()
export class PrintCallbacks
  implements OnApplicationBootstrap, BeforeApplicationShutdown, LeasedDispatcher<PrintJobEntity>
{
  private readonly logger = new Logger('PrintCallbacks');
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly shutdown = new AbortController();
  private readonly leases: DeliveryLeases<PrintJobEntity>;
  private readonly slots: TenantSlots;

  constructor(
    private readonly config: ApiConfig,
    private readonly jobs: PrintJobRepository,
    owner: DeliveryOwner,
    private readonly listen: ListenForwarder,
    private readonly service: ServiceListening,
    metrics: ApiMetrics,
  ) {
    this.slots = new TenantSlots({
      slots: MAX_CONCURRENT_ATTEMPTS,
      share: config.WEBHOOK_MAX_IN_FLIGHT_PER_DESTINATION,
      onTimedOut: (merchantId, destination, cut) => {
        metrics.printCallbackTimedOut();
        if (cut)
          this.logger.warn(
            `${destination} of merchant ${merchantId} keeps timing out: one print callback in flight until it answers`,
          );
      },
    });
    this.leases = new DeliveryLeases<PrintJobEntity>({
      store: {
        claim: (now, until, limit) => jobs.claimCallbacks(now, until, limit),
        renew: (until) => jobs.renewCallbacks(until, this.heldIds()),
        release: () => jobs.releaseCallbacks(),
      },
      leaseMs: owner.leaseMs,
      claimEveryMs: Math.min(CLAIM_EVERY_MS, owner.leaseMs / 3),
      claimBatch: CLAIM_BATCH,
      now: () => Date.now(),
      timers: {
        set: (callback, delayMs) => setTimeout(callback, delayMs),
        clear: (handle) => clearTimeout(handle as NodeJS.Timeout),
      },
      onError: (message) => this.logger.error(message),
      orderKeyOf: (job) => job.printJobId,
    });
  }

  /** Calls back the jobs a stop or a crash left without an outcome: their attempt never ended. */
  async onApplicationBootstrap(): Promise<void> {
    this.leases.begin(this);
    const unsent = await this.jobs.adoptCallbacks();
    if (unsent.length === 0) return;
    this.logger.log(`resuming ${unsent.length} print callbacks cut by a stop`);
    // Once the service answers: a receiver may read the job back as it is called (contract §13).
    void this.service.listening.then(() => unsent.forEach((job) => this.send(job)));
  }

  /**
   * Cuts the attempts in flight without recording them and gives their leases back: another
   * process makes them at once, or this one at its next start.
   */
  async beforeApplicationShutdown(): Promise<void> {
    await this.leases.stop();
    this.slots.stop();
    this.shutdown.abort();
    await Promise.all(this.inFlight.values());
    try {
      await this.leases.release();
    } catch (error) {
      // The database is unreachable: the leases end by themselves.
      this.logger.error(`giving back print callbacks: ${String(error)}`);
    }
  }

  /** A callback claimed from the outbox: made at once. */
  add(job: PrintJobEntity): void {
    this.send(job);
  }

  /** What this process holds: the attempts under way (a held one is always under way). */
  heldIds(): string[] {
    return [...this.inFlight.keys()];
  }

  /** The slots free: every callback held is under way, in a slot or waiting for one. */
  room(): number {
    return MAX_CONCURRENT_ATTEMPTS - this.inFlight.size;
  }

  /** An attempt whose lease another process took goes on; its record finds the lease gone. */
  drop(): void {}

  /**
   * Starts the one attempt of a finished job's webhook in the background; call only once the
   * result is committed. The terminal's report is acknowledged without waiting for the receiver.
   */
  send(job: PrintJobEntity, traceparent?: string): void {
    if (job.webhookUrl === '' || this.inFlight.has(job.printJobId) || this.shutdown.signal.aborted) return;
    const attempt = this.attempt(job, traceparent)
      .catch((error: unknown) => {
        if (!(error instanceof AttemptAbandoned)) {
          this.logger.error(`print callback of ${job.printJobId}: ${String(error)}`);
        }
      })
      .finally(() => {
        this.inFlight.delete(job.printJobId);
        // A claimed callback made frees room: the next claim comes now, not at its interval.
        this.leases.settled(job.printJobId);
      });
    this.inFlight.set(job.printJobId, attempt);
  }

  /** The one attempt, in the trace of the print request when the terminal's report named it. */
  private async attempt(job: PrintJobEntity, traceparent: string | undefined): Promise<void> {
    if (job.status !== 'COMPLETED' && job.status !== 'FAILED') return;
    const payload = printWebhookPayload({
      printJobId: job.printJobId,
      status: job.status,
      externalReference: job.externalReference,
      errorCode: job.errorCode ?? undefined,
      errorMessage: job.errorMessage ?? undefined,
    });
    const slot = await this.slots.take(job.merchantId, destinationOf(job.webhookUrl, job.merchantId));
    let signingSecrets: string[];
    try {
      signingSecrets = await this.jobs.signingSecrets(job.merchantId, Date.now());
    } catch (error) {
      slot.release();
      if (!(error instanceof UnknownSecretKeyError)) throw error;
      await this.recordUnsent(job, error);
      return;
    }
    let copied: CopiedCallback | undefined;
    let sent: PrintCallbackRecord;
    try {
      // Each `listen` connection of the merchant gets a copy (contract §6.1).
      copied = this.listen.callback(
        job.merchantId,
        this.config.PRINT_CALLBACK_TIMEOUT_MS,
        this.shutdown.signal,
      );
      sent = await Tracing.get().aroundCall(
        'print callback',
        { parent: traceparent, attributes: { 'server.address': new URL(job.webhookUrl).host } },
        (traced) =>
          sendPrintCallback(job.webhookUrl, payload, {
            timeoutMs: this.config.PRINT_CALLBACK_TIMEOUT_MS,
            destinations: destinationRules(this.config),
            signingSecrets,
            shutdown: this.shutdown.signal,
            traceparent: traced,
            fetch: copied?.fetch,
          }),
      );
    } catch (error) {
      slot.release();
      throw error;
    }
    // Freed by the answer, not by the record (as a webhook attempt's slot is).
    slot.ended(sent.error === 'timeout');
    const listeners = copied?.listeners();
    const outcome: PrintCallbackRecord =
      listeners === undefined ? sent : { ...sent, listeners: listeners.answered.map(listenerRecord) };
    this.logger.log(
      `print callback of ${job.printJobId} → ${outcome.statusCode ?? outcome.error} (one attempt, no retry)`,
    );
    await this.record(job, outcome);
    if (listeners?.later === undefined) return;
    // Listeners slower than the URL: their answers go beside the recorded callback (contract §6.1).
    const first = outcome.listeners ?? [];
    recordLaterListeners(listeners.later, (rest) =>
      this.jobs.recordCallback(job, { ...outcome, listeners: [...first, ...rest.map(listenerRecord)] }),
    ).catch((error: unknown) =>
      this.logger.error(
        `print callback of ${job.printJobId}: the listeners' answers not recorded: ${String(error)}`,
      ),
    );
  }

  /**
   * The one attempt, spent without sending: the merchant's webhook secret is sealed under a key
   * the service lacks, and a callback is never sent unsigned (contract, "Secrets at rest").
   */
  private async recordUnsent(job: PrintJobEntity, error: UnknownSecretKeyError): Promise<void> {
    this.logger.warn(
      `print callback of ${job.printJobId}: not sent, ${error.message}; recorded as secret_unavailable`,
    );
    const outcome = {
      attemptedAt: new Date().toISOString(),
      statusCode: null,
      error: 'secret_unavailable',
      latencyMs: 0,
    };
    await this.record(job, outcome);
  }

  /** The attempt's outcome, written only while this process still holds the attempt's lease. */
  private async record(job: PrintJobEntity, outcome: PrintCallbackRecord): Promise<void> {
    if (!(await this.jobs.recordCallback(job, outcome))) {
      this.logger.error(
        `print callback of ${job.printJobId}: taken by another process; outcome not recorded`,
      );
    }
  }
}
