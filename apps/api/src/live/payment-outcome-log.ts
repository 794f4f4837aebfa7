import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { TransactionEvent } from '@tps/contracts';
import { isFinalStatus } from '@tps/domain';
import type { Unsubscribe } from '@tps/messaging';
import { traceFieldsOf } from '@tps/observability';
import { API_MESSAGES, type ApiMessages } from '../messages/api-messages';
import { ApiMetrics } from '../metrics/api-metrics';
import { outcomeLine } from './outcome-line';

/** Acknowledgements waiting for their outcome; bounded, so an outcome that never comes costs nothing lasting. */
const MAX_OPEN = 10_000;

/** One log line per payment outcome, and its time from acknowledgement in the metrics. */
@Injectable()
export class PaymentOutcomeLog implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('Payments');
  /** Acknowledgement time by transaction, from the events' own timestamps (both on the merchant clock). */
  private readonly started = new Map<string, number>();
  private unsubscribe: Unsubscribe | undefined;

  constructor(
    @Inject(API_MESSAGES) private readonly messages: ApiMessages,
    private readonly metrics: ApiMetrics,
  ) {}

  onModuleInit(): void {
    this.unsubscribe = this.messages.subscribe('transaction.event', ({ event, traceparent }) =>
      this.take(event, traceparent),
    );
  }

  onModuleDestroy(): void {
    this.unsubscribe?.();
  }

  /** `traceparent`: the terminal's run of the operation, in the trace of the request that asked for it. */
  private take(event: TransactionEvent, traceparent: string | undefined): void {
    const key = `${event.merchant_id}\n${event.client_transaction_id}`;
    if (event.status === 'TERMINAL_ACKNOWLEDGED') {
      if (this.started.size >= MAX_OPEN) this.started.delete(this.started.keys().next().value as string);
      this.started.set(key, Date.parse(event.occurred_at));
      return;
    }
    if (!isFinalStatus(event.status)) return;
    const start = this.started.get(key);
    this.started.delete(key);
    // Acknowledged before this process started: the outcome is logged without its duration.
    const elapsedMs = start === undefined ? undefined : Date.parse(event.occurred_at) - start;
    this.logger.log({
      msg: outcomeLine(event, elapsedMs),
      merchant_id: event.merchant_id,
      client_transaction_id: event.client_transaction_id,
      terminal_serial: event.terminal.serialNumber,
      operation: event.operation.type,
      status: event.status,
      code: event.failure_reason?.code,
      duration_ms: elapsedMs,
      ...traceFieldsOf(traceparent),
    });
    if (elapsedMs !== undefined)
      this.metrics.operationEnded(event.operation.type, event.status, elapsedMs / 1000);
  }
}
