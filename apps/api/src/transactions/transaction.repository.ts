import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, type EntityManager, type Repository } from 'typeorm';
import {
  approvalEffects,
  isFollowUp,
  referenceStandsForTarget,
  totalCentavos,
  transition,
  type BusinessRecord,
  type LifecycleStatus,
} from '@tps/domain';
import type { SearchFilters, SearchPosition } from '@tps/contracts';
import { EntityTable, SerialWriter, isUniqueViolation, sqlOf, type Sql } from '@tps/database';
import type { LinkEvent, OperationOrder } from '@tps/link';
import { businessRecordOf } from './business-record';
import { TransactionEventEntity } from './transaction-event.entity';
import { TransactionEntity } from './transaction.entity';
import { EventRunState, RecordMovedOnError } from './event-run-state';
import { RecentTransactions } from './recent-transactions';
import { transactionWriteKey } from './transaction-write-key';
import { RECORDED_FROM_TERMINAL, transactionFromOrder } from './transaction-from-order';

/** What deciding a follow-up reads: inside the write that records it, so nothing falls between. */
export interface FollowUpReader {
  findByReference(merchantId: string, transactionReference: string): Promise<TransactionEntity | null>;
  /** Whether a follow-up on this reference was started and has no outcome yet. */
  hasFollowUpRunning(merchantId: string, targetReference: string): Promise<boolean>;
  /** Whether a request already took this client_transaction_id (then it is answered as a repeat). */
  isTaken(merchantId: string, clientTransactionId: string): Promise<boolean>;
}

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

/** The state an event moves its transaction to, or why it cannot: checked before any write. */
function followingStatus(transaction: TransactionEntity, event: LinkEvent['event']): LifecycleStatus | Error {
  if (event.previous_status !== (transaction.status ?? '')) {
    return new Error(
      `event ${event.event_id} follows ${event.previous_status || '(none)'} but ${transaction.clientTransactionId} is at ${transaction.status ?? '(none)'}`,
    );
  }
  try {
    return transition(transaction.status, event.status);
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

@Injectable()
export class TransactionRepository {
  private readonly table: EntityTable<TransactionEntity>;
  private readonly eventTable: EntityTable<TransactionEventEntity>;

  constructor(
    private readonly writer: SerialWriter,
    @InjectRepository(TransactionEntity) private readonly transactions: Repository<TransactionEntity>,
    @InjectRepository(TransactionEventEntity) private readonly events: Repository<TransactionEventEntity>,
    private readonly recent: RecentTransactions = new RecentTransactions(),
  ) {
    this.table = new EntityTable(transactions.manager.connection, TransactionEntity);
    this.eventTable = new EntityTable(transactions.manager.connection, TransactionEventEntity);
  }

  findByClientId(merchantId: string, clientTransactionId: string): Promise<TransactionEntity | null> {
    return this.table.findOne(sqlOf(this.transactions.manager), { merchantId, clientTransactionId });
  }

  eventsOf(transactionId: string): Promise<TransactionEventEntity[]> {
    return this.eventTable.find(
      sqlOf(this.events.manager),
      { transactionId },
      { orderBy: [['sequence', 'ASC']] },
    );
  }

  /** An approved transaction of this merchant by its reference; another merchant's is unknown. */
  findByReference(merchantId: string, transactionReference: string): Promise<TransactionEntity | null> {
    return this.table.findOne(sqlOf(this.transactions.manager), { merchantId, transactionReference });
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
    const builder = this.transactions
      .createQueryBuilder('t')
      .where('t.merchant_id = :merchantId', { merchantId })
      .andWhere('t.status IS NOT NULL');
    const equal: Array<[string, string | undefined]> = [
      ['client_transaction_id', filters.clientTransactionId],
      ['transaction_reference', filters.transactionReference],
      ['status', filters.status],
      ['operation_type', filters.operationType],
      ['terminal_serial', filters.terminalSerial],
    ];
    for (const [column, value] of equal) {
      if (value !== undefined) builder.andWhere(`t.${column} = :${column}`, { [column]: value });
    }
    if (filters.fromMs !== undefined)
      builder.andWhere('t.created_at_ms >= :fromMs', { fromMs: filters.fromMs });
    if (filters.toMs !== undefined) builder.andWhere('t.created_at_ms <= :toMs', { toMs: filters.toMs });
    if (after !== undefined) {
      builder.andWhere('(t.created_at_ms < :atMs OR (t.created_at_ms = :atMs AND t.id < :afterId))', {
        atMs: Number(after.at),
        afterId: after.key,
      });
    }
    return builder.orderBy('t.created_at_ms', 'DESC').addOrderBy('t.id', 'DESC').take(take).getMany();
  }

  /** The events of these transactions, each transaction's in order. */
  async eventsOfMany(transactionIds: string[]): Promise<Map<string, TransactionEventEntity[]>> {
    const byId = new Map<string, TransactionEventEntity[]>(transactionIds.map((id) => [id, []]));
    if (transactionIds.length === 0) return byId;
    const rows = await this.events.find({
      where: { transactionId: In(transactionIds) },
      order: { sequence: 'ASC' },
    });
    for (const row of rows) byId.get(row.transactionId)?.push(row);
    return byId;
  }

  /**
   * Inserts the record `decide` builds from what it reads, in the same write: another request, in
   * this process or another one on the same database, cannot act on the same transaction between
   * the check and the insert. Null when the client_transaction_id is already taken (`decide` may
   * say so itself, before it plans anything); a refusal thrown by `decide` is thrown here, and
   * nothing is written. `alone`: `decide` reads nothing and the record is that transaction's, so
   * the write may run beside others in its batch (SerialWriter's keys).
   */
  insertDecided(
    decide: (reader: FollowUpReader) => Promise<TransactionEntity | null>,
    alone?: TransactionName,
  ): Promise<TransactionEntity | null> {
    const keys = alone && [transactionWriteKey(alone.merchantId, alone.clientTransactionId)];
    return this.writer.writeKeyed(keys, async (manager) => {
      const transaction = await decide(this.readerOf(manager));
      if (transaction === null) return null;
      // The unique key answers whether the id is taken: no read before the insert.
      return (await this.table.insertUnlessTaken(sqlOf(manager), transaction)) ? transaction : null;
    });
  }

  /** Forgets a request the terminal never took, so that the caller may try it again. */
  async remove(id: string): Promise<void> {
    await this.writer.write((manager) => this.table.delete(sqlOf(manager), { id, status: null }));
  }

  /**
   * Appends a terminal's run of events, in order and in one write, each to the transaction it
   * names, moving the stored state through the domain's transition function. An event already
   * stored (a replay) changes nothing. The acknowledgement of a transaction the service has no
   * record of (its request was lost with a crash or a cut link) records it from the order the
   * terminal took; an event of another terminal's transaction is dropped. `alongsideIn` makes,
   * for each run of the write (the write queue may run it again after a rollback), what stores
   * what follows from an event (its webhook) in the same write, so neither is ever kept without
   * the other. The run stops at the first event that does not follow its transaction's state: the
   * ones before it are stored, it and the rest are not.
   *
   * Each transaction is read once, its events go in one INSERT and its new state in one UPDATE,
   * whatever the length of the run. A row known without reading it is taken instead: `recorded`
   * (a row just inserted, with no event yet), or for a run of one transaction the row a run of
   * this process has just written (RecentTransactions). Its UPDATE then checks that no event or
   * delivery was stored for it meanwhile, and if one was (or its events were stored already),
   * the run is written again from what is stored.
   *
   * A run on a known row of a transaction that acts on no other (not a follow-up) touches that
   * transaction only, and may share its batch with other writes at once (SerialWriter's keys).
   */
  async appendEvents<T>(
    terminal: TerminalIdentity,
    links: LinkEvent[],
    alongsideIn: (manager: EntityManager) => Alongside<T>,
    recorded?: TransactionEntity,
  ): Promise<AppendedRun<T>> {
    const known =
      recorded !== undefined && recorded.status === null && recorded.eventCount === 0
        ? recorded
        : this.recentRowOf(links);
    if (known !== undefined) {
      try {
        return await this.writeAndRemember(terminal, links, alongsideIn, known);
      } catch (error) {
        if (!(error instanceof RecordMovedOnError)) throw error;
      }
    }
    return this.writeAndRemember(terminal, links, alongsideIn, undefined);
  }

  /** The row a recent run wrote, for a run whose events are all of that one transaction. */
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
  ): Promise<AppendedRun<T>> {
    const { appended, written } = await this.writeRun(terminal, links, alongsideIn, known);
    // Committed: the rows are now what is stored.
    this.recent.remember(written);
    return appended;
  }

  private writeRun<T>(
    terminal: TerminalIdentity,
    links: LinkEvent[],
    alongsideIn: (manager: EntityManager) => Alongside<T>,
    recorded: TransactionEntity | undefined,
  ): Promise<{ appended: AppendedRun<T>; written: TransactionEntity[] }> {
    return this.writer.writeKeyed(keysOfRun(links, recorded), async (manager) => {
      const sql = sqlOf(manager);
      const alongside = alongsideIn(manager);
      const run = new EventRunState(sql, this.table, this.eventTable, recorded);
      const decided: Array<{
        link: LinkEvent;
        transaction: TransactionEntity | null;
        result: Appended<T>['result'];
      }> = [];
      let refusal: Error | undefined;
      for (const link of links) {
        const transaction =
          (await run.transaction(link.event)) ?? (await this.adopt(sql, run, terminal, link));
        if (transaction === null || transaction.terminalSerial !== terminal.serialNumber) {
          decided.push({ link, transaction: null, result: 'unknown' });
          continue;
        }
        const status = followingStatus(transaction, link.event);
        if (status instanceof Error) {
          // Only an event that does not follow can be one stored already: the lifecycle never
          // goes back to the state an event left.
          if (await run.isStored(link.event.event_id)) {
            decided.push({ link, transaction, result: 'duplicate' });
            continue;
          }
          refusal = status;
          break;
        }
        run.appendEvent(
          transaction,
          link.event,
          status,
          await this.outcomeChanges(sql, run, transaction, link),
        );
        decided.push({ link, transaction, result: 'appended' });
      }
      // Given a row that has moved on, an event may seem not to follow: read it, and decide again.
      if (recorded !== undefined && refusal !== undefined) throw new RecordMovedOnError(recorded.id);
      try {
        await run.insertEvents();
      } catch (error) {
        // Given a row that has moved on, an event stored already seems new: its key refuses it.
        throw recorded !== undefined && isUniqueViolation(error)
          ? new RecordMovedOnError(recorded.id)
          : error;
      }
      const appended: Array<Appended<T>> = [];
      for (const { link, transaction, result } of decided) {
        if (transaction === null || result === 'unknown') appended.push({ link, result: 'unknown' });
        else
          appended.push({
            link,
            result,
            alongside: await alongside.each(transaction, link.event, result),
          });
      }
      await alongside.end();
      // Last: where reads share the writer's connection (an in-memory SQLite), whoever sees the new
      // status then also sees its events, its reference, its deliveries and the business state.
      await run.updateTransactions();
      return {
        appended: refusal === undefined ? { appended } : { appended, refusal },
        written: run.written(),
      };
    });
  }

  /**
   * The reads that decide a follow-up, inside its write. The transaction it acts on is locked
   * first (PostgreSQL): another write deciding on it, in this process or another, waits for this
   * one to commit, then reads what it stored (its follow-up running, its new totals).
   */
  private readerOf(manager: EntityManager): FollowUpReader {
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

  /** Records a transaction the terminal took but the service never stored, from its order. */
  private async adopt(
    sql: Sql,
    run: EventRunState,
    terminal: TerminalIdentity,
    { event, order }: LinkEvent,
  ): Promise<TransactionEntity | null> {
    if (
      event.status !== 'TERMINAL_ACKNOWLEDGED' ||
      order === undefined ||
      order.merchantId !== terminal.merchantId ||
      order.merchantId !== event.merchant_id ||
      order.clientTransactionId !== event.client_transaction_id
    ) {
      return null;
    }
    const transaction = transactionFromOrder(order, terminal.serialNumber, {
      fingerprint: RECORDED_FROM_TERMINAL,
      targetReference: await this.targetReferenceOf(run, order),
      createdAt: new Date(event.occurred_at),
    });
    await this.table.insert(sql, transaction);
    run.adopt(transaction);
    return transaction;
  }

  /** The reference of the transaction a follow-up acts on, as the planner resolved it. */
  private async targetReferenceOf(run: EventRunState, order: OperationOrder): Promise<string | null> {
    const reference = order.transactionReference;
    if (reference === undefined || !isFollowUp(order.type)) return null;
    const named = await run.findByReference(order.merchantId, reference);
    return named !== null && referenceStandsForTarget(named.operationType) && named.targetReference !== null
      ? named.targetReference
      : reference;
  }

  /**
   * The changes that store the outcome, once. An approval's business effects (contract §9) come
   * from the domain; an approved follow-up changes the transaction it acted on here, in the same
   * write, before the follow-up itself shows its end.
   */
  private async outcomeChanges(
    sql: Sql,
    run: EventRunState,
    transaction: TransactionEntity,
    { outcome }: LinkEvent,
  ): Promise<Partial<TransactionEntity>> {
    if (outcome === undefined || transaction.outcome !== null) return {};
    const changes: Partial<TransactionEntity> = { outcome };
    if (outcome.kind !== 'acquirer' || !outcome.response.approved) return changes;
    const { rawResponse, timestamp } = outcome.response;
    changes.transactionReference = rawResponse.transaction_reference;
    const target =
      isFollowUp(transaction.operationType) && transaction.targetReference !== null
        ? await run.findByReference(transaction.merchantId, transaction.targetReference)
        : null;
    const effects = approvalEffects(
      { type: transaction.operationType, total: totalCentavos(transaction.amount), tip: transaction.tip },
      { cardType: rawResponse.card_type, at: timestamp },
      target === null ? null : businessRecordOf(target),
    );
    if (effects.own !== null) {
      Object.assign(changes, {
        businessState: effects.own.state,
        businessAmount: transaction.amount,
        cardType: effects.own.cardType,
        approvedAtMs: effects.own.approvedAt,
        validFromMs: effects.own.validFrom,
      });
    }
    if (target !== null && effects.target !== null) {
      const onTarget = targetChanges(effects.target, transaction);
      await this.table.update(sql, { id: target.id }, onTarget);
      run.changeTarget(target, onTarget);
    }
    return changes;
  }
}

/**
 * The write keys of a run that touches its known row's transaction only: every event names it,
 * so none is adopted, and it is no follow-up, so no other transaction changes with its outcome.
 */
function keysOfRun(links: LinkEvent[], known: TransactionEntity | undefined): string[] | undefined {
  if (known === undefined || isFollowUp(known.operationType) || !allName(links, known)) return undefined;
  return [transactionWriteKey(known.merchantId, known.clientTransactionId)];
}

/** Whether every event of the run is of that one transaction. */
function allName(links: LinkEvent[], { merchantId, clientTransactionId }: TransactionName): boolean {
  return links.every(
    ({ event }) => event.merchant_id === merchantId && event.client_transaction_id === clientTransactionId,
  );
}

/** The columns a follow-up's effects change on the transaction it acted on. */
function targetChanges(
  after: Partial<BusinessRecord>,
  followUp: TransactionEntity,
): Partial<TransactionEntity> {
  const changes: Partial<TransactionEntity> = {};
  if (after.state !== undefined) changes.businessState = after.state;
  if (after.tip !== undefined) changes.businessTip = after.tip;
  if (after.refunded !== undefined) changes.refundedTotal = after.refunded;
  if (after.validFrom !== undefined) changes.validFromMs = after.validFrom;
  // A re-authorization sets a new authorized amount: its own.
  if (after.total !== undefined) changes.businessAmount = followUp.amount;
  return changes;
}
