import type { SearchedTransaction } from './transaction-search';

/** The fields of a transaction event this receiver uses; it ignores any other. */
export interface PaymentEvent {
  event_id: string;
  client_transaction_id: string;
  status: string;
  previous_status: string;
}

/** The fields of a print callback this receiver uses. */
export interface PrintCallback {
  printJobId: string;
  status: string;
}

/**
 * Whether an event cannot simply be applied: its previous_status is not the state last recorded,
 * so an event is missing or came out of order. The state before the first webhook is the
 * TERMINAL_ACKNOWLEDGED the async call answered.
 */
export function needsReconcile(lastStatus: string, event: PaymentEvent): boolean {
  return event.previous_status !== '' && event.previous_status !== lastStatus;
}

export interface LedgerOptions {
  /** Reads the transaction's state from the service (transaction search). */
  search: (clientTransactionId: string) => Promise<SearchedTransaction | null>;
  /** Told of each state the receiver records, e.g. to update an order. */
  onStatus?: (clientTransactionId: string, status: string) => void;
  onError?: (error: unknown) => void;
  needsReconcile?: typeof needsReconcile;
}

/**
 * The work done after answering: deduplicate by event_id (and print callbacks by printJobId),
 * correlate by client_transaction_id, reconcile a gap through transaction search. Each
 * transaction's events are processed one at a time, in the order they arrived.
 */
export class Ledger {
  private readonly processedEvents = new Set<string>();
  private readonly processedPrintJobs = new Set<string>();
  /** How many times each event_id or printJobId was processed: what the report tells. */
  private readonly timesProcessed = new Map<string, number>();
  private readonly statuses = new Map<string, string>();
  private readonly queues = new Map<string, Promise<void>>();

  constructor(private readonly options: LedgerOptions) {}

  statusOf(clientTransactionId: string): string | undefined {
    return this.statuses.get(clientTransactionId);
  }

  /** `{ id: times_processed }` for the ids asked about (all when none are named). */
  processed(ids?: string[]): Record<string, number> {
    const report: Record<string, number> = {};
    for (const id of ids ?? this.timesProcessed.keys()) {
      const times = this.timesProcessed.get(id);
      if (times !== undefined) report[id] = times;
    }
    return report;
  }

  private counted(id: string): void {
    this.timesProcessed.set(id, (this.timesProcessed.get(id) ?? 0) + 1);
  }

  take(message: Record<string, unknown>): void {
    if (typeof message.printJobId === 'string') {
      this.takePrint(message as unknown as PrintCallback);
    } else if (typeof message.event_id === 'string' && typeof message.client_transaction_id === 'string') {
      const event = message as unknown as PaymentEvent;
      const id = event.client_transaction_id;
      const queued = (this.queues.get(id) ?? Promise.resolve())
        .then(() => this.apply(event))
        .catch((error: unknown) => this.options.onError?.(error));
      this.queues.set(id, queued);
    }
  }

  private takePrint(callback: PrintCallback): void {
    if (this.processedPrintJobs.has(callback.printJobId)) return;
    this.processedPrintJobs.add(callback.printJobId);
    this.counted(callback.printJobId);
  }

  private async apply(event: PaymentEvent): Promise<void> {
    if (this.processedEvents.has(event.event_id)) return;
    this.processedEvents.add(event.event_id);
    this.counted(event.event_id);
    const id = event.client_transaction_id;
    const last = this.statuses.get(id) ?? 'TERMINAL_ACKNOWLEDGED';
    const check = this.options.needsReconcile ?? needsReconcile;
    if (!check(last, event)) {
      this.record(id, event.status);
      return;
    }
    // A missing or late event: the service's record is the truth, and never moves backwards.
    const found = await this.options.search(id);
    this.record(id, found?.status ?? event.status);
  }

  private record(clientTransactionId: string, status: string): void {
    this.statuses.set(clientTransactionId, status);
    this.options.onStatus?.(clientTransactionId, status);
  }
}
