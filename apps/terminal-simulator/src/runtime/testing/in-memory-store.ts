import type { TransactionEvent } from '@tps/contracts';
import type { LinkEvent, OperationOrder, TransactionOutcome } from '@tps/link';
import {
  TransactionAlreadyStoredError,
  transactionKey,
  type RuntimeStore,
  type StoredTransaction,
} from '../runtime-store';

export interface QueuedEvent {
  seq: number;
  serialNumber: string;
  key: string;
  event: TransactionEvent;
  outcome: TransactionOutcome | undefined;
  acked: boolean;
}

/** The terminal's store in memory, for unit tests: same contract as the SQLite one. */
export class InMemoryStore implements RuntimeStore {
  readonly transactions = new Map<string, StoredTransaction & { serialNumber: string }>();
  readonly events: QueuedEvent[] = [];
  /** How many times the runtime read a transaction (never on the way to a write). */
  transactionReads = 0;
  /** How many writes `record` made. */
  writes = 0;

  findTransaction(key: string): Promise<StoredTransaction | null> {
    this.transactionReads++;
    return this.later(this.transactions.get(key) ?? null);
  }

  async record(serialNumber: string, order: OperationOrder, links: LinkEvent[]): Promise<void> {
    await this.later(undefined);
    const key = transactionKey(order.merchantId, order.clientTransactionId);
    const status = links[links.length - 1].event.status;
    if (links[0].event.status === 'TERMINAL_ACKNOWLEDGED') {
      // The SQLite store's primary key refuses it the same way.
      if (this.transactions.has(key)) throw new TransactionAlreadyStoredError(key);
      this.transactions.set(key, { key, serialNumber, order, status });
    } else {
      const stored = this.transactions.get(key);
      if (stored === undefined) throw new Error(`no transaction ${key}`);
      stored.status = status;
    }
    this.writes++;
    for (const link of links) {
      this.events.push({
        seq: this.events.length + 1,
        serialNumber,
        key,
        event: link.event,
        outcome: link.outcome,
        acked: false,
      });
    }
  }

  unfinished(serialNumber: string): Promise<StoredTransaction[]> {
    const open = ['TERMINAL_ACKNOWLEDGED', 'CARD_PRESENTED', 'APPROVAL_REQUESTED'];
    return this.later(
      [...this.transactions.values()].filter(
        (t) => t.serialNumber === serialNumber && open.includes(t.status),
      ),
    );
  }

  lastEvent(key: string): Promise<{ envelope: TransactionEvent } | null> {
    const last = this.events.filter((e) => e.key === key).at(-1);
    return this.later(last === undefined ? null : { envelope: last.event });
  }

  eventsOf(clientTransactionId: string): TransactionEvent[] {
    return this.events
      .filter((e) => e.event.client_transaction_id === clientTransactionId)
      .map((e) => e.event);
  }

  /** Answers on a later tick, as a real database does, so that interleavings show up. */
  private later<T>(value: T): Promise<T> {
    return new Promise((resolve) => setImmediate(() => resolve(value)));
  }
}
