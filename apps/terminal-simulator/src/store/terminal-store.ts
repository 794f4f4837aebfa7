import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  EntityTable,
  SerialWriter,
  portsOf,
  sqlOf,
  type QueuedEvent,
  type Sql,
  type TerminalQueue,
} from '@tps/database';
import type { LifecycleStatus } from '@tps/domain';
import type { LinkEvent, OperationOrder } from '@tps/link';
import { TransactionAlreadyStoredError, transactionKey, type RuntimeStore } from '../runtime/runtime-store';
import { DeferredAcknowledgements } from './deferred-acknowledgements';
import { TerminalEventEntity } from './terminal-event.entity';
import { TerminalTransactionEntity } from './terminal-transaction.entity';

export { transactionKey };

/** The states a crash can leave a transaction in: it was still running (closed at start-up). */
const UNFINISHED: LifecycleStatus[] = ['TERMINAL_ACKNOWLEDGED', 'CARD_PRESENTED', 'APPROVAL_REQUESTED'];

/** A queued event as it travels up the link, with its transaction's order when it is an acknowledgement. */
function linkOf(queued: QueuedEvent): LinkEvent {
  const link: LinkEvent = { event: queued.envelope as LinkEvent['event'] };
  const outcome = queued.outcome as LinkEvent['outcome'] | null | undefined;
  if (outcome !== null && outcome !== undefined) link.outcome = outcome;
  const order = queued.order as OperationOrder | null;
  if (order?.traceparent !== undefined) link.traceparent = order.traceparent;
  // The order goes up with the acknowledgement only.
  if (order !== null && link.event.status === 'TERMINAL_ACKNOWLEDGED') link.order = order;
  return link;
}

/**
 * The terminal's own store (a SQLite file or PostgreSQL): its transactions and its queue of events
 * for the service, in fixed SQL prepared once (EntityTable, TerminalQueue).
 */
@Injectable()
export class TerminalStore implements RuntimeStore, OnModuleDestroy {
  private readonly transactionTable: EntityTable<TerminalTransactionEntity>;
  private readonly eventTable: EntityTable<TerminalEventEntity>;
  private readonly queue: TerminalQueue;
  /** Reads outside a write, on the data source's connection. */
  private readonly reads: Sql;
  private readonly acknowledgements: DeferredAcknowledgements;

  constructor(
    private readonly writer: SerialWriter,
    dataSource: DataSource,
  ) {
    this.transactionTable = new EntityTable(dataSource, TerminalTransactionEntity);
    this.eventTable = new EntityTable(dataSource, TerminalEventEntity);
    this.reads = sqlOf(dataSource.manager);
    this.queue = portsOf(dataSource).terminalQueue(dataSource, {
      events: TerminalEventEntity,
      transactions: TerminalTransactionEntity,
    });
    this.acknowledgements = new DeferredAcknowledgements((seqs, eventIds) =>
      this.writer.write(async (manager) => {
        await this.queue.acknowledge(manager, 'seq', seqs);
        await this.queue.acknowledge(manager, 'eventId', eventIds);
      }),
    );
  }

  /** The acknowledgements still in memory are written before the connection closes. */
  async onModuleDestroy(): Promise<void> {
    this.acknowledgements.stop();
    await this.acknowledgements.writeNow().catch(() => undefined);
  }

  findTransaction(key: string): Promise<TerminalTransactionEntity | null> {
    return this.transactionTable.findOne(this.reads, { key });
  }

  /**
   * Stores a run of events of one transaction and the state the last one moved it to, in one
   * write of one statement on PostgreSQL: the transaction's row once, the events in one INSERT. A
   * run that starts with an acknowledgement whose transaction is stored already (the terminal ran
   * that id before) is refused by the primary key, with no read: TransactionAlreadyStoredError,
   * and nothing of it is stored. The refusal is no error inside the write, so the writes that
   * share its commit go on.
   *
   * One statement (SerialWriter.writeOne).
   */
  async record(serialNumber: string, order: OperationOrder, links: LinkEvent[]): Promise<void> {
    const key = transactionKey(order.merchantId, order.clientTransactionId);
    const first = links[0].event;
    const status = links[links.length - 1].event.status;
    // Only a final event has an outcome, and it ends the run.
    const outcome = links.findLast((link) => link.outcome !== undefined)?.outcome;
    const events = links.map(({ event, outcome: eventOutcome }) => ({
      serialNumber,
      transactionKey: key,
      eventId: event.event_id,
      envelope: event,
      outcome: eventOutcome ?? null,
      acked: false,
    }));
    const stored = await this.writer.writeOne(async (manager) => {
      const sql = sqlOf(manager);
      if (first.status !== 'TERMINAL_ACKNOWLEDGED') {
        const changes = outcome === undefined ? { status } : { status, outcome };
        await sql.together([
          this.transactionTable.updating({ key }, changes),
          this.eventTable.inserting(events),
        ]);
        return true;
      }
      const row = {
        key,
        serialNumber,
        order,
        status,
        outcome: outcome ?? null,
        createdAt: first.occurred_at,
      };
      // The events only if the row went in: a taken id leaves nothing of the run stored.
      const [created] = await sql.together([
        this.transactionTable.insertingUnlessTaken(row),
        { ...this.eventTable.insertingSelect(events), ifChanged: 0 },
      ]);
      return created === 1;
    });
    if (!stored) throw new TransactionAlreadyStoredError(key);
  }

  /** The oldest events the service has not acknowledged yet, in emission order, as they go up. */
  async pending(serialNumber: string, limit: number): Promise<Array<{ seq: number; link: LinkEvent }>> {
    // Acknowledgements not written yet leave rows out: read enough more to fill the limit.
    const queued = await this.queue.pending(serialNumber, limit + this.acknowledgements.size);
    return queued
      .map((event) => ({ seq: event.seq, link: linkOf(event) }))
      .filter(({ seq, link }) => !this.acknowledgements.holds(seq, link.event.event_id))
      .slice(0, limit);
  }

  /**
   * How many events wait for the service, across every hosted terminal, once the acknowledgements
   * in memory are written.
   */
  async queuedCount(): Promise<number> {
    await this.acknowledgements.writeNow();
    return this.eventTable.count(this.reads, { acked: false });
  }

  /**
   * The service stored these queued events (by seq): they leave the queue at once, and the store
   * with the next acknowledgements' write (DeferredAcknowledgements).
   */
  acknowledge(seqs: number[]): Promise<void> {
    this.acknowledgements.add(seqs, []);
    return Promise.resolve();
  }

  /**
   * The service stored these events (by event_id) from a reply: they need not go up the uplink
   * again. Written like `acknowledge`; ids this store does not hold change nothing.
   */
  acknowledgeEvents(eventIds: string[]): Promise<void> {
    this.acknowledgements.add([], eventIds);
    return Promise.resolve();
  }

  /** Writes the acknowledgements held in memory now, instead of at their timer. */
  writeAcknowledgements(): Promise<void> {
    return this.acknowledgements.writeNow();
  }

  /** Transactions left unfinished by a crash, so the terminal can close them at start-up. */
  async unfinished(serialNumber: string): Promise<TerminalTransactionEntity[]> {
    const byStatus = await Promise.all(
      UNFINISHED.map((status) => this.transactionTable.find(this.reads, { serialNumber, status })),
    );
    // Oldest first, as the terminal ran them (ISO 8601 UTC times compare as text).
    return byStatus
      .flat()
      .sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
  }

  /** Every event stored for one transaction, in order, as it travels up the link. */
  async linkEvents(key: string): Promise<LinkEvent[]> {
    return (await this.queue.ofTransaction(key)).map(linkOf);
  }

  async lastEvent(key: string): Promise<TerminalEventEntity | null> {
    const [last] = await this.eventTable.find(
      this.reads,
      { transactionKey: key },
      { orderBy: [['seq', 'DESC']], limit: 1 },
    );
    return last ?? null;
  }
}
