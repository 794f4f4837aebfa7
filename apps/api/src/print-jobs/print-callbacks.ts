import {
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { AttemptAbandoned, printWebhookPayload, sendPrintCallback } from '@tps/delivery';
import { ApiConfig, destinationRules } from '../config/api-config';
import type { PrintJobEntity } from './print-job.entity';
import { PrintJobRepository } from './print-job.repository';

/**
 * The print webhook (contract §6: one POST, 15 s timeout, no retry, the outcome logged), sent by
 * the service once the job's result is stored, so that polling already shows what the callback
 * tells (contract §13). Signed like transaction webhooks when the merchant has a secret, and
 * checked at connect time against the profile's destination rules.
 */
@Injectable()
export class PrintCallbacks implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('PrintCallbacks');
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly shutdown = new AbortController();

  constructor(
    private readonly config: ApiConfig,
    private readonly jobs: PrintJobRepository,
  ) {}

  /** Calls back the jobs a stop or a crash left without an outcome: their attempt never ended. */
  async onApplicationBootstrap(): Promise<void> {
    const unsent = await this.jobs.unsentCallbacks();
    if (unsent.length > 0) this.logger.log(`resuming ${unsent.length} print callbacks cut by a stop`);
    for (const job of unsent) this.send(job);
  }

  /** Cuts the attempts in flight without recording them: they are made again at the next start. */
  async beforeApplicationShutdown(): Promise<void> {
    this.shutdown.abort();
    await Promise.all(this.inFlight.values());
  }

  /**
   * Starts the one attempt of a finished job's webhook in the background; call only once the
   * result is committed. The terminal's report is acknowledged without waiting for the receiver.
   */
  send(job: PrintJobEntity): void {
    if (job.webhookUrl === '' || this.inFlight.has(job.printJobId) || this.shutdown.signal.aborted) return;
    const attempt = this.attempt(job)
      .catch((error: unknown) => {
        if (!(error instanceof AttemptAbandoned)) {
          this.logger.error(`print callback of ${job.printJobId}: ${String(error)}`);
        }
      })
      .finally(() => this.inFlight.delete(job.printJobId));
    this.inFlight.set(job.printJobId, attempt);
  }

  private async attempt(job: PrintJobEntity): Promise<void> {
    if (job.status !== 'COMPLETED' && job.status !== 'FAILED') return;
    const payload = printWebhookPayload({
      printJobId: job.printJobId,
      status: job.status,
      externalReference: job.externalReference,
      errorCode: job.errorCode ?? undefined,
      errorMessage: job.errorMessage ?? undefined,
    });
    const outcome = await sendPrintCallback(job.webhookUrl, payload, {
      timeoutMs: this.config.PRINT_CALLBACK_TIMEOUT_MS,
      destinations: destinationRules(this.config),
      signingSecrets: await this.jobs.signingSecrets(job.merchantId, Date.now()),
      shutdown: this.shutdown.signal,
    });
    this.logger.log(
      `print callback of ${job.printJobId} → ${outcome.statusCode ?? outcome.error} (one attempt, no retry)`,
    );
    await this.jobs.recordCallback(job.printJobId, outcome);
  }
}
