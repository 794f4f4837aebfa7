import { randomUUID } from 'node:crypto';
import type { TransactionEvent } from '@tps/contracts';
import { isFinalStatus } from '@tps/domain';
import type { LinkEvent } from '@tps/link';
import type { FollowUpReader, OperationStore, StoredTransaction } from '../operation-ports';

/**
 * The operation store in memory, for unit tests of the use case: one record per merchant and
 * client_transaction_id (the unique key), events applied in order. Business effects are the
 * domain's (decideEventRun), tested there.
 */
export class InMemoryOperationStore implements OperationStore {
  readonly records = new Map<string, StoredTransaction>();
  readonly events = new Map<string, TransactionEvent[]>();
  /** Set to make the next writes fail, as a full disk would. */
  failWrites: Error | undefined;

  findByClientId(merchantId: string, clientTransactionId: string): Promise<StoredTransaction | null> {
    const found = this.records.get(`${merchantId}:${clientTransactionId}`);
    return this.later(found === undefined ? null : { ...found });
  }

  insertNew(transaction: StoredTransaction): Promise<StoredTransaction | null> {
    return this.insertDecided(async () => transaction);
  }

  async insertDecided(
    decide: (reader: FollowUpReader) => Promise<StoredTransaction | null>,
  ): Promise<StoredTransaction | null> {
    const reader: FollowUpReader = {
      findByReference: async (merchantId, reference) =>
        [...this.records.values()].find(
          (t) => t.merchantId === merchantId && t.transactionReference === reference,
        ) ?? null,
      hasFollowUpRunning: async (merchantId, reference) =>
        [...this.records.values()].some(
          (t) => t.merchantId === merchantId && t.targetReference === reference && t.outcome === null,
        ),
      isTaken: async (merchantId, clientTransactionId) =>
        this.records.has(`${merchantId}:${clientTransactionId}`),
    };
    const transaction = await decide(reader);
    if (transaction === null) return null;
    await this.later(undefined);
    if (this.failWrites !== undefined) throw this.failWrites;
    const key = `${transaction.merchantId}:${transaction.clientTransactionId}`;
    if (this.records.has(key)) return null;
    this.records.set(key, { ...transaction });
    return transaction;
  }

  async remove(id: string): Promise<void> {
    await this.later(undefined);
    for (const [key, record] of this.records) {
      if (record.id === id && record.status === null) this.records.delete(key);
    }
  }

  async storeEvents(_terminal: unknown, links: LinkEvent[]): Promise<void> {
    await this.later(undefined);
    if (this.failWrites !== undefined) throw this.failWrites;
    for (const { event, outcome } of links) {
      const record = this.records.get(`${event.merchant_id}:${event.client_transaction_id}`);
      if (record === undefined) throw new Error(`no record for ${event.client_transaction_id}`);
      const stored = this.events.get(record.id) ?? [];
      if (stored.some((e) => e.event_id === event.event_id)) continue;
      stored.push(event);
      this.events.set(record.id, stored);
      record.status = event.status;
      if (event.status === 'TERMINAL_ACKNOWLEDGED') record.acknowledgement = event;
      if (isFinalStatus(event.status) && outcome !== undefined) {
        record.outcome = outcome;
        if (outcome.kind === 'acquirer' && outcome.response.approved) {
          record.transactionReference = outcome.response.rawResponse.transaction_reference ?? randomUUID();
        }
      }
    }
  }

  /** Answers on a later tick, as a database does, so interleavings show up. */
  private later<T>(value: T): Promise<T> {
    return new Promise((resolve) => setImmediate(() => resolve(value)));
  }
}
