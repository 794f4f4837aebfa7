import { In, type EntityManager } from 'typeorm';
import type { LinkEvent } from '@tps/link';
import { TransactionEventEntity } from './transaction-event.entity';
import { TransactionEntity } from './transaction.entity';

/** What one run of events has read so far, inside its write. */
export class EventRunState {
  private readonly transactions = new Map<string, Promise<TransactionEntity | null>>();
  private readonly counts = new Map<string, number>();
  private stored: Promise<Set<string>> | undefined;
  private readonly storedInRun = new Set<string>();

  constructor(
    private readonly manager: EntityManager,
    private readonly links: LinkEvent[],
  ) {}

  transaction(event: LinkEvent['event']): Promise<TransactionEntity | null> {
    const key = `${event.merchant_id}:${event.client_transaction_id}`;
    let found = this.transactions.get(key);
    if (found === undefined) {
      found = this.manager.findOneBy(TransactionEntity, {
        merchantId: event.merchant_id,
        clientTransactionId: event.client_transaction_id,
      });
      this.transactions.set(key, found);
    }
    return found;
  }

  /** A transaction this run has just recorded. */
  adopt(transaction: TransactionEntity): void {
    this.transactions.set(
      `${transaction.merchantId}:${transaction.clientTransactionId}`,
      Promise.resolve(transaction),
    );
    this.counts.set(transaction.id, 0);
  }

  /** Whether an event is stored already (one query for the whole run). */
  async isStored(eventId: string): Promise<boolean> {
    this.stored ??= this.manager
      .find(TransactionEventEntity, {
        select: { eventId: true },
        where: { eventId: In(this.links.map((link) => link.event.event_id)) },
      })
      .then((rows) => new Set(rows.map((row) => row.eventId)));
    return this.storedInRun.has(eventId) || (await this.stored).has(eventId);
  }

  /** An event this run has just stored: a second copy later in the run is a duplicate. */
  remember(eventId: string): void {
    this.storedInRun.add(eventId);
  }

  async nextSequence(transactionId: string): Promise<number> {
    const count =
      this.counts.get(transactionId) ??
      (await this.manager.countBy(TransactionEventEntity, { transactionId }));
    this.counts.set(transactionId, count + 1);
    return count + 1;
  }
}
