import type { EntityTable, Sql } from '@tps/database';
import type { LifecycleStatus } from '@tps/domain';
import type { LinkEvent } from '@tps/link';
import type { TransactionEventEntity } from './transaction-event.entity';
import type { TransactionEntity } from './transaction.entity';

/** A transaction the run read, and what the run changes on it (written once, at its end). */
interface Touched {
  transaction: TransactionEntity;
  changes: Partial<TransactionEntity>;
  deliveriesBefore: number;
  /** Taken from the caller, not read: its UPDATE checks that it still holds these counts. */
  unread?: { eventCount: number; deliveryCount: number };
}

/** The UPDATE of a transaction taken unread found that events were stored for it meanwhile. */
export class RecordMovedOnError extends Error {
  constructor(readonly transactionId: string) {
    super(`transaction ${transactionId} changed while its run was written`);
    this.name = 'RecordMovedOnError';
  }
}

/**
 * What one run of events has read and decided so far, inside its write. Each transaction is read
 * once; its events, its sequence counter and its new state stay in memory until the run writes
 * them: the events in one INSERT, each transaction's changes in one UPDATE.
 */
export class EventRunState {
  private readonly touched = new Map<string, Promise<Touched | null>>();
  private readonly byId = new Map<string, Touched>();
  private readonly newEvents: Array<Partial<TransactionEventEntity>> = [];
  private readonly storedInRun = new Set<string>();

  /**
   * `recorded`, when given, is a transaction as its caller has just written it: the run takes it
   * instead of reading it, and its UPDATE checks that nothing stored an event or a delivery for it
   * meanwhile.
   */
  constructor(
    private readonly sql: Sql,
    private readonly transactions: EntityTable<TransactionEntity>,
    private readonly events: EntityTable<TransactionEventEntity>,
    recorded?: TransactionEntity,
  ) {
    if (recorded !== undefined) {
      const touched = this.touch({ ...recorded });
      touched.unread = { eventCount: recorded.eventCount, deliveryCount: recorded.deliveryCount };
      this.touched.set(`${recorded.merchantId}:${recorded.clientTransactionId}`, Promise.resolve(touched));
    }
  }

  async transaction(event: LinkEvent['event']): Promise<TransactionEntity | null> {
    const key = `${event.merchant_id}:${event.client_transaction_id}`;
    let found = this.touched.get(key);
    if (found === undefined) {
      found = this.transactions
        .findOne(
          this.sql,
          { merchantId: event.merchant_id, clientTransactionId: event.client_transaction_id },
          { lock: true },
        )
        .then((transaction) => (transaction === null ? null : this.touch(transaction)));
      this.touched.set(key, found);
    }
    return (await found)?.transaction ?? null;
  }

  /** A transaction this run has just recorded. */
  adopt(transaction: TransactionEntity): void {
    this.touched.set(
      `${transaction.merchantId}:${transaction.clientTransactionId}`,
      Promise.resolve(this.touch(transaction)),
    );
  }

  /**
   * A transaction of this merchant by its reference, as this run has it (a run may hold a charge's
   * approval and a follow-up on it), else as stored.
   */
  async findByReference(merchantId: string, reference: string): Promise<TransactionEntity | null> {
    for (const { transaction } of this.byId.values()) {
      if (transaction.merchantId === merchantId && transaction.transactionReference === reference) {
        return transaction;
      }
    }
    return this.transactions.findOne(
      this.sql,
      { merchantId, transactionReference: reference },
      { lock: true },
    );
  }

  /**
   * Changes a follow-up's approval makes on the transaction it acted on, written at once by the
   * caller: they are kept in memory too, so that the run's later events, and the run's own UPDATE
   * of that transaction if it touched it, carry them.
   */
  changeTarget(target: TransactionEntity, changes: Partial<TransactionEntity>): void {
    const touched = this.byId.get(target.id);
    Object.assign(touched?.transaction ?? target, changes);
    if (touched !== undefined) Object.assign(touched.changes, changes);
  }

  /** Whether an event is stored already, by this run or before it. */
  async isStored(eventId: string): Promise<boolean> {
    if (this.storedInRun.has(eventId)) return true;
    return (await this.events.findOne(this.sql, { eventId })) !== null;
  }

  /** Takes an event that follows its transaction's state, with the changes it brings. */
  appendEvent(
    transaction: TransactionEntity,
    event: LinkEvent['event'],
    status: LifecycleStatus,
    outcomeChanges: Partial<TransactionEntity>,
  ): void {
    const touched = this.byId.get(transaction.id);
    if (touched === undefined) throw new Error(`transaction ${transaction.id} was not read by this run`);
    const sequence = transaction.eventCount + 1;
    this.newEvents.push({
      eventId: event.event_id,
      transactionId: transaction.id,
      sequence,
      status,
      previousStatus: event.previous_status,
      occurredAt: event.occurred_at,
      envelope: event,
    });
    this.storedInRun.add(event.event_id);
    const changes: Partial<TransactionEntity> = { ...outcomeChanges, status, eventCount: sequence };
    if (status === 'TERMINAL_ACKNOWLEDGED') changes.acknowledgement = event;
    // The next event of the run may be for the same transaction.
    Object.assign(transaction, changes);
    Object.assign(touched.changes, changes);
  }

  async insertEvents(): Promise<void> {
    await this.events.insert(this.sql, this.newEvents);
  }

  /**
   * One UPDATE for each transaction the run changed, its delivery counter included. One taken
   * unread is updated only if it still holds the events it had: else RecordMovedOnError.
   */
  async updateTransactions(): Promise<void> {
    for (const { transaction, changes, deliveriesBefore, unread } of this.byId.values()) {
      if (transaction.deliveryCount !== deliveriesBefore) changes.deliveryCount = transaction.deliveryCount;
      if (Object.keys(changes).length === 0) continue;
      const where: Partial<TransactionEntity> =
        unread === undefined ? { id: transaction.id } : { id: transaction.id, ...unread };
      const changed = await this.transactions.update(this.sql, where, changes);
      if (unread !== undefined && changed === 0) throw new RecordMovedOnError(transaction.id);
    }
  }

  /** The transactions the run changed, as its UPDATEs left them. */
  written(): TransactionEntity[] {
    return [...this.byId.values()]
      .filter(({ changes }) => Object.keys(changes).length > 0)
      .map(({ transaction }) => transaction);
  }

  private touch(transaction: TransactionEntity): Touched {
    const touched = { transaction, changes: {}, deliveriesBefore: transaction.deliveryCount };
    this.byId.set(transaction.id, touched);
    return touched;
  }
}
