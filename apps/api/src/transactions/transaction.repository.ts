import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { decideEventRun, isFollowUp, type EventRunReads, type FollowUpReads } from '@tps/domain';
import type { SearchFilters, SearchPosition } from '@tps/contracts';
import {
  anyOf,
  ConcurrentWriteError,
  EntityTable,
  SerialWriter,
  storageRead,
  isUniqueViolation,
  portsOf,
  sqlOf,
  type Sql,
  type Statement,
  type TransactionCounts,
  type TransactionSearch,
} from '@tps/database';
import type { LinkEvent } from '@tps/link';
import { TransactionEventEntity } from './transaction-event.entity';
import { TransactionEntity } from './transaction.entity';
import { RecordMovedOnError } from './record-moved-on-error';
import { RecentTransactions } from './recent-transactions';
import { RECORDED_FROM_TERMINAL, transactionFromOrder } from './transaction-from-order';

/** A transaction as a request names it. */
export interface TransactionName {
  merchantId: string;
  clientTransactionId: string;
}

/** The terminal whose link an event run came by. */
export interface TerminalIdentity {
  serialNumber: string;
  merchantId: string;
}

export type AppendResult = 'appended' | 'duplicate';

export type Appended<T> =
  { link: LinkEvent; result: AppendResult; alongside: T } | { link: LinkEvent; result: 'unknown' };

/**
 * What a run stores beside its events, in the same write: `each` for every event stored (or found
 * stored already), `end` once after the last, before the transactions' new states are written.
 */
export interface Alongside<T> {
  each: (transaction: TransactionEntity, event: LinkEvent['event'], result: AppendResult) => Promise<T>;
  end: () => Promise<void>;
}

export interface AppendedRun<T> {
  appended: Array<Appended<T>>;
  /** Why the event after the appended ones was refused; absent when the whole run went in. */
  refusal?: Error;
}

@Injectable()
export class TransactionRepository {
  private readonly table: EntityTable<TransactionEntity>;
  private readonly eventTable: EntityTable<TransactionEventEntity>;
  private readonly counts: TransactionCounts;
  private readonly search: TransactionSearch<TransactionEntity>;

  constructor(
    private readonly writer: SerialWriter,
    private readonly reads: DataSource,
    private readonly recent: RecentTransactions = new RecentTransactions(),
  ) {
    this.table = new EntityTable(reads, TransactionEntity);
    this.eventTable = new EntityTable(reads, TransactionEventEntity);
    this.counts = portsOf(reads).transactionCounts(reads);
    this.search = portsOf(reads).transactionSearch(reads, this.table);
  }

  private get sql(): Sql {
    return sqlOf(this.reads.manager);
  }

  findByClientId(merchantId: string, clientTransactionId: string): Promise<TransactionEntity | null> {
    return storageRead(this.table.findOne(this.sql, { merchantId, clientTransactionId }));
  }

  /** How many transactions of the merchant are dated (merchant clock) from `fromMs` to before `toMs`. */
  countCreatedBetween(merchantId: string, fromMs: number, toMs: number): Promise<number> {
    return this.counts.createdBetween(merchantId, fromMs, toMs);
  }

  eventsOf(transactionId: string): Promise<TransactionEventEntity[]> {
    return this.eventTable.find(this.sql, { transactionId }, { orderBy: [['sequence', 'ASC']] });
  }

  /** An approved transaction of this merchant by its reference; another merchant's is unknown. */
  findByReference(merchantId: string, transactionReference: string): Promise<TransactionEntity | null> {
    return this.table.findOne(this.sql, { merchantId, transactionReference });
  }

  /**
   * One page of the merchant's transactions for search, newest first, positioned after `after`.
   * Transactions no terminal has acknowledged yet are not shown.
   */
  searchPage(
    merchantId: string,
    filters: SearchFilters,
    after: SearchPosition | undefined,
    take: number,
  ): Promise<TransactionEntity[]> {
    const equal: Array<[keyof TransactionEntity, string | undefined]> = [
      ['clientTransactionId', filters.clientTransactionId],
      ['transactionReference', filters.transactionReference],
      ['status', filters.status],
      ['operationType', filters.operationType],
      ['terminalSerial', filters.terminalSerial],
    ];
    return this.search.page({
      merchantId,
      equal: equal.flatMap(([property, value]) => (value === undefined ? [] : [[property, value] as const])),
      fromMs: filters.fromMs,
      toMs: filters.toMs,
      after: after === undefined ? undefined : { atMs: Number(after.at), id: after.key },
      take,
    });
  }

  /** The events of these transactions, each transaction's in order. */
  async eventsOfMany(transactionIds: string[]): Promise<Map<string, TransactionEventEntity[]>> {
    const byId = new Map<string, TransactionEventEntity[]>(transactionIds.map((id) => [id, []]));
    if (transactionIds.length === 0) return byId;
    const rows = await this.eventTable.find(
      this.sql,
      { transactionId: anyOf(transactionIds) },
      { orderBy: [['sequence', 'ASC']] },
    );
    for (const row of rows) byId.get(row.transactionId)?.push(row);
    return byId;
  }

  /**
   * Inserts a new transaction's record: the INSERT is the whole write (SerialWriter.writeOne),
   * the unique key answering whether the id is taken (null then). The row as inserted stands in
   * for a read of it when the terminal's reply comes soon (RecentTransactions).
   */
  async insertNew(transaction: TransactionEntity): Promise<TransactionEntity | null> {
    const inserted = await this.writer.writeOne((manager) =>
      this.table.insertUnlessTaken(sqlOf(manager), transaction),
    );
    if (!inserted) return null;
    this.recent.remember([transaction]);
    return transaction;
  }

  /**
   * Inserts the record `decide` builds from what it reads, in the same write: another request, in
   * this process or another one on the same database, cannot act on the same transaction between
   * the check and the insert. Null when the client_transaction_id is already taken (`decide` may
   * say so itself, before it plans anything); a refusal thrown by `decide` is thrown here, and
   * nothing is written.
   */
  async insertDecided(
    decide: (reader: FollowUpReads<TransactionEntity>) => Promise<TransactionEntity | null>,
  ): Promise<TransactionEntity | null> {
    const transaction = await this.writer.write(async (manager): Promise<TransactionEntity | null> => {
      const decided = await decide(this.readerOf(manager));
      if (decided === null) return null;
      // The unique key answers whether the id is taken: no read before the insert.
      return (await this.table.insertUnlessTaken(sqlOf(manager), decided)) ? decided : null;
    });
    if (transaction !== null) this.recent.remember([transaction]);
    return transaction;
  }

  /** Forgets a request the terminal never took, so that the caller may try it again. */
  async remove(id: string): Promise<void> {
    await this.writer.write((manager) => this.table.delete(sqlOf(manager), { id, status: null }));
  }

  /**
   * Appends a terminal's run of events, in order and in one write, each to the transaction it
   * names, as the domain decides it (decideEventRun): an event already stored (a replay) changes
   * nothing; the acknowledgement of a transaction the service has no record of (its request was
   * lost with a crash or a cut link) records it from the order the terminal took; an event of
   * another terminal's transaction is dropped. This stores what was decided. `alongsideIn` makes,
   * for each run of the write (the write queue may run it again after a rollback), what stores
   * what follows from an event (its webhook) in the same write, so neither is ever kept without
   * the other. The run stops at the first event that does not follow its transaction's state: the
   * ones before it are stored, it and the rest are not.
   *
   * Each transaction is read once, its events go in one INSERT and its new state in one UPDATE,
   * whatever the length of the run. For a run of one transaction, the row as this process has
   * just inserted or written it (RecentTransactions) is taken instead of a read. Its UPDATE then
   * checks that no event or delivery was stored for it meanwhile, and if one was (or its events
   * were stored already), the run is written again from what is stored.
   *
   * A run on a known row of a transaction that acts on no other (not a follow-up) touches that
   * transaction only. When `alongsideIn` stores nothing for that transaction (`storesNothing`),
   * the run is then one statement (SerialWriter.writeOne).
   */
  async appendEvents<T>(
    terminal: TerminalIdentity,
    links: LinkEvent[],
    alongsideIn: (manager: EntityManager) => Alongside<T>,
    storesNothing: (transaction: TransactionEntity) => boolean = () => false,
  ): Promise<AppendedRun<T>> {
    const known = this.recentRowOf(links);
    if (known !== undefined) {
      try {
        return await this.writeAndRemember(terminal, links, alongsideIn, known, storesNothing(known));
      } catch (error) {
        if (!(error instanceof RecordMovedOnError)) throw error;
      }
    }
    return this.writeAndRemember(terminal, links, alongsideIn, undefined, false);
  }

  /** The row this process recently inserted or wrote, for a run whose events are all of that one transaction. */
  private recentRowOf(links: LinkEvent[]): TransactionEntity | undefined {
    if (links.length === 0) return undefined;
    const { merchant_id: merchantId, client_transaction_id: clientTransactionId } = links[0].event;
    return allName(links, { merchantId, clientTransactionId })
      ? this.recent.take(merchantId, clientTransactionId)
      : undefined;
  }

  private async writeAndRemember<T>(
    terminal: TerminalIdentity,
    links: LinkEvent[],
    alongsideIn: (manager: EntityManager) => Alongside<T>,
    known: TransactionEntity | undefined,
    quiet: boolean,
  ): Promise<AppendedRun<T>> {
    const { appended, written } = await this.writeRun(terminal, links, alongsideIn, known, quiet);
    // Committed: the rows are now what is stored.
    this.recent.remember(written);
    return appended;
  }

  private writeRun<T>(
    terminal: TerminalIdentity,
    links: LinkEvent[],
    alongsideIn: (manager: EntityManager) => Alongside<T>,
    recorded: TransactionEntity | undefined,
    quiet: boolean,
  ): Promise<{ appended: AppendedRun<T>; written: TransactionEntity[] }> {
    const ownRowOnly = touchesOwnRowOnly(links, recorded);
    const write = async (
      manager: EntityManager,
    ): Promise<{ appended: AppendedRun<T>; written: TransactionEntity[] }> => {
      const sql = sqlOf(manager);
      const decision = await decideEventRun(terminal, links, this.runReads(sql, recorded), (order, details) =>
        transactionFromOrder(order, terminal.serialNumber, {
          fingerprint: RECORDED_FROM_TERMINAL,
          ...details,
        }),
      );
      // Given a row that has moved on, an event may seem not to follow: read it, and decide again.
      if (recorded !== undefined && decision.refusal !== undefined) throw new RecordMovedOnError(recorded.id);
      try {
        if (decision.inserts.length > 0) await this.table.insert(sql, decision.inserts);
        // A follow-up changes the transaction it acted on before it shows its own end.
        for (const { record, changes } of decision.targetUpdates) {
          await this.table.update(sql, { id: record.id }, changes);
        }
      } catch (error) {
        throw conflictOf(error, recorded);
      }
      const deliveriesBefore = new Map(decision.updates.map(({ record }) => [record, record.deliveryCount]));
      const alongside = alongsideIn(manager);
      const appended: Array<Appended<T>> = [];
      try {
        for (const decided of decision.results) {
          if (decided.result === 'unknown') appended.push({ link: decided.link, result: 'unknown' });
          else
            appended.push({
              link: decided.link,
              result: decided.result,
              alongside: await alongside.each(decided.transaction, decided.link.event, decided.result),
            });
        }
        // The outbox rows take their positions from the row's delivery count: a run of another
        // lane that stored deliveries for it meanwhile has taken them.
        await alongside.end();
      } catch (error) {
        throw conflictOf(error, recorded);
      }
      const written: TransactionEntity[] = [];
      const updates: Statement[] = [];
      let guarded: number | undefined;
      for (const { record, changes } of decision.updates) {
        const delivered = record.deliveryCount !== deliveriesBefore.get(record);
        if (delivered) changes.deliveryCount = record.deliveryCount;
        if (Object.keys(changes).length === 0) continue;
        // A row taken unread is updated only if it still holds the events and deliveries it had.
        const unread = recorded !== undefined && recorded.id === record.id;
        if (unread) guarded = updates.length;
        const where = unread
          ? { id: record.id, eventCount: recorded.eventCount, deliveryCount: recorded.deliveryCount }
          : { id: record.id };
        updates.push(this.table.updating(where, changes));
        written.push(record);
      }
      // The events and the transactions' new states in one trip to the server (they touch
      // different rows). Last, and in this order: where reads share the writer's connection (an
      // in-memory SQLite), whoever sees the new status then also sees its events, its reference,
      // its deliveries and the business state. Beside a row taken unread, the events go in only
      // if its UPDATE finds it as it was: a write of that one statement then stores all or nothing.
      const events: Statement[] =
        decision.events.length === 0
          ? []
          : guarded === undefined
            ? [this.eventTable.inserting(decision.events)]
            : [{ ...this.eventTable.insertingSelect(decision.events), ifChanged: guarded + 1 }];
      const changed = await sql.together([...events, ...updates]).catch((error: unknown) => {
        throw conflictOf(error, recorded);
      });
      if (recorded !== undefined && guarded !== undefined && changed[events.length + guarded] === 0) {
        throw new RecordMovedOnError(recorded.id);
      }
      const { refusal } = decision;
      return { appended: refusal === undefined ? { appended } : { appended, refusal }, written };
    };
    // On its known row, with nothing stored alongside, the run writes in one statement: its events
    // and the row's new state, all or nothing (the UPDATE's check above).
    return quiet && ownRowOnly ? this.writer.writeOne(write) : this.writer.write(write);
  }

  /**
   * What deciding a run reads; a row taken unread (`recorded`) stands in for its read. Rows read
   * are locked until the write commits (PostgreSQL), so that what is decided from them holds.
   */
  private runReads(sql: Sql, recorded: TransactionEntity | undefined): EventRunReads<TransactionEntity> {
    return {
      byName: (merchantId, clientTransactionId) =>
        recorded !== undefined &&
        recorded.merchantId === merchantId &&
        recorded.clientTransactionId === clientTransactionId
          ? Promise.resolve(recorded)
          : this.table.findOne(sql, { merchantId, clientTransactionId }),
      byReference: (merchantId, transactionReference) =>
        this.table.findOne(sql, { merchantId, transactionReference }),
      isStored: async (eventId) => (await this.eventTable.findOne(sql, { eventId })) !== null,
    };
  }

  /**
   * The reads that decide a follow-up, inside its write. The transaction it acts on is locked
   * first (PostgreSQL): another write deciding on it, in this process or another, waits for this
   * one to commit, then reads what it stored (its follow-up running, its new totals).
   */
  private readerOf(manager: EntityManager): FollowUpReads<TransactionEntity> {
    const sql = sqlOf(manager);
    return {
      findByReference: (merchantId, transactionReference) =>
        this.table.findOne(sql, { merchantId, transactionReference }, { lock: true }),
      hasFollowUpRunning: async (merchantId, targetReference) =>
        (await this.table.findOne(sql, { merchantId, targetReference, outcome: null })) !== null,
      isTaken: async (merchantId, clientTransactionId) =>
        (await this.table.findOne(sql, { merchantId, clientTransactionId })) !== null,
    };
  }
}

/**
 * A unique key refused the run's rows. Given a row that has moved on, an event stored already
 * seems new: its key refuses it, and the run is written again from what is stored. Else the same
 * transaction or events were stored meanwhile by another write, of this process or another: the write
 * decides again from what is stored now.
 */
function conflictOf(error: unknown, recorded: TransactionEntity | undefined): unknown {
  if (!isUniqueViolation(error)) return error;
  return recorded === undefined ? new ConcurrentWriteError(error) : new RecordMovedOnError(recorded.id);
}

/**
 * Whether a run touches its known row's transaction only: every event names it, so none is
 * adopted, and it is no follow-up, so no other transaction changes with its outcome.
 */
function touchesOwnRowOnly(links: LinkEvent[], known: TransactionEntity | undefined): boolean {
  return known !== undefined && !isFollowUp(known.operationType) && allName(links, known);
}

/** Whether every event of the run is of that one transaction. */
function allName(links: LinkEvent[], { merchantId, clientTransactionId }: TransactionName): boolean {
  return links.every(
    ({ event }) => event.merchant_id === merchantId && event.client_transaction_id === clientTransactionId,
  );
}
