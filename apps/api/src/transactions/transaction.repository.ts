import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, IsNull, type EntityManager, type Repository } from 'typeorm';
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
import { insertRows, isUniqueViolation, SerialWriter } from '@tps/database';
import type { LinkEvent, OperationOrder, TransactionOutcome } from '@tps/link';
import { businessRecordOf } from './business-record';
import { TransactionEventEntity } from './transaction-event.entity';
import { TransactionEntity } from './transaction.entity';
import { EventRunState } from './event-run-state';
import { RECORDED_FROM_TERMINAL, transactionFromOrder } from './transaction-from-order';

/** What deciding a follow-up reads: inside the write that records it, so nothing falls between. */
export interface FollowUpReader {
  findByReference(merchantId: string, transactionReference: string): Promise<TransactionEntity | null>;
  /** Whether a follow-up on this reference was started and has no outcome yet. */
  hasFollowUpRunning(merchantId: string, targetReference: string): Promise<boolean>;
}

function readerOf(manager: EntityManager): FollowUpReader {
  return {
    findByReference: (merchantId, transactionReference) =>
      manager.findOneBy(TransactionEntity, { merchantId, transactionReference }),
    hasFollowUpRunning: (merchantId, targetReference) =>
      manager.existsBy(TransactionEntity, { merchantId, targetReference, outcome: IsNull() }),
  };
}

/** The terminal whose link an event run came by. */
export interface TerminalIdentity {
  serialNumber: string;
  merchantId: string;
}

export type AppendResult = 'appended' | 'duplicate';

export type Appended<T> =
  { link: LinkEvent; result: AppendResult; alongside: T } | { link: LinkEvent; result: 'unknown' };

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
  constructor(
    private readonly writer: SerialWriter,
    @InjectRepository(TransactionEntity) private readonly transactions: Repository<TransactionEntity>,
    @InjectRepository(TransactionEventEntity) private readonly events: Repository<TransactionEventEntity>,
  ) {}

  findByClientId(merchantId: string, clientTransactionId: string): Promise<TransactionEntity | null> {
    return this.transactions.findOneBy({ merchantId, clientTransactionId });
  }

  eventsOf(transactionId: string): Promise<TransactionEventEntity[]> {
    return this.events.find({ where: { transactionId }, order: { sequence: 'ASC' } });
  }

  /** An approved transaction of this merchant by its reference; another merchant's is unknown. */
  findByReference(merchantId: string, transactionReference: string): Promise<TransactionEntity | null> {
    return readerOf(this.transactions.manager).findByReference(merchantId, transactionReference);
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
   * the check and the insert. Null when the client_transaction_id is already taken; a refusal
   * thrown by `decide` is thrown here, and nothing is written.
   */
  async insertDecided(
    decide: (reader: FollowUpReader) => Promise<TransactionEntity>,
  ): Promise<TransactionEntity | null> {
    try {
      return await this.writer.write(async (manager) => {
        const transaction = await decide(readerOf(manager));
        await insertRows(manager, TransactionEntity, transaction);
        return transaction;
      });
    } catch (error) {
      if (isUniqueViolation(error)) return null;
      throw error;
    }
  }

  /** Forgets a request the terminal never took, so that the caller may try it again. */
  async remove(id: string): Promise<void> {
    await this.writer.write((manager) => manager.delete(TransactionEntity, { id, status: IsNull() }));
  }

  /**
   * Appends a terminal's run of events, in order and in one write, each to the transaction it
   * names, moving the stored state through the domain's transition function. An event already
   * stored (a replay) changes nothing. The acknowledgement of a transaction the service has no
   * record of (its request was lost with a crash or a cut link) records it from the order the
   * terminal took; an event of another terminal's transaction is dropped. `alongside` stores what follows from an event (its webhook) in the same write, so
   * neither is ever kept without the other. The run stops at the first event that does not
   * follow its transaction's state: the ones before it are stored, it and the rest are not.
   */
  appendEvents<T>(
    terminal: TerminalIdentity,
    links: LinkEvent[],
    alongside: (
      manager: EntityManager,
      transaction: TransactionEntity,
      event: LinkEvent['event'],
      result: AppendResult,
    ) => Promise<T>,
  ): Promise<AppendedRun<T>> {
    return this.writer.write(async (manager) => {
      const appended: Array<Appended<T>> = [];
      // A run mostly holds several events of one transaction: each is read and counted once.
      const run = new EventRunState(manager, links);
      for (const link of links) {
        const transaction =
          (await run.transaction(link.event)) ?? (await this.adopt(manager, run, terminal, link));
        if (transaction === null || transaction.terminalSerial !== terminal.serialNumber) {
          appended.push({ link, result: 'unknown' });
          continue;
        }
        if (await run.isStored(link.event.event_id)) {
          appended.push({
            link,
            result: 'duplicate',
            alongside: await alongside(manager, transaction, link.event, 'duplicate'),
          });
          continue;
        }
        const status = followingStatus(transaction, link.event);
        if (status instanceof Error) return { appended, refusal: status };
        await this.append(manager, transaction, link, status, await run.nextSequence(transaction.id));
        run.remember(link.event.event_id);
        appended.push({
          link,
          result: 'appended',
          alongside: await alongside(manager, transaction, link.event, 'appended'),
        });
      }
      return { appended };
    });
  }

  /** Records a transaction the terminal took but the service never stored, from its order. */
  private async adopt(
    manager: EntityManager,
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
      targetReference: await this.targetReferenceOf(manager, order),
      createdAt: new Date(event.occurred_at),
    });
    await insertRows(manager, TransactionEntity, transaction);
    run.adopt(transaction);
    return transaction;
  }

  /** The reference of the transaction a follow-up acts on, as the planner resolved it. */
  private async targetReferenceOf(manager: EntityManager, order: OperationOrder): Promise<string | null> {
    const reference = order.transactionReference;
    if (reference === undefined || !isFollowUp(order.type)) return null;
    const named = await manager.findOneBy(TransactionEntity, {
      merchantId: order.merchantId,
      transactionReference: reference,
    });
    return named !== null && referenceStandsForTarget(named.operationType) && named.targetReference !== null
      ? named.targetReference
      : reference;
  }

  private async append(
    manager: EntityManager,
    transaction: TransactionEntity,
    { event, outcome }: LinkEvent,
    status: LifecycleStatus,
    sequence: number,
  ): Promise<void> {
    await insertRows(manager, TransactionEventEntity, {
      eventId: event.event_id,
      transactionId: transaction.id,
      sequence,
      status,
      previousStatus: event.previous_status,
      occurredAt: event.occurred_at,
      envelope: event,
    });
    const changes: Partial<TransactionEntity> = {
      ...(outcome === undefined ? {} : await this.applyOutcome(manager, transaction, outcome)),
      status,
    };
    if (status === 'TERMINAL_ACKNOWLEDGED') changes.acknowledgement = event;
    // Last and in one statement: SQLite readers share the writer's connection, so whoever sees
    // the new status also sees its event, its reference and the business state it changed.
    await manager.update(TransactionEntity, { id: transaction.id }, changes);
    // The next event of the run may be for the same transaction.
    Object.assign(transaction, changes);
  }

  /**
   * The changes that store the outcome, once. An approval's business effects (contract §9) come
   * from the domain; an approved follow-up changes the transaction it acted on here, in the same
   * write, before the follow-up itself shows its end.
   */
  private async applyOutcome(
    manager: EntityManager,
    transaction: TransactionEntity,
    outcome: TransactionOutcome,
  ): Promise<Partial<TransactionEntity>> {
    if (transaction.outcome !== null) return {};
    const changes: Partial<TransactionEntity> = { outcome };
    if (outcome.kind !== 'acquirer' || !outcome.response.approved) return changes;
    const { rawResponse, timestamp } = outcome.response;
    changes.transactionReference = rawResponse.transaction_reference;
    const target =
      isFollowUp(transaction.operationType) && transaction.targetReference !== null
        ? await manager.findOneBy(TransactionEntity, {
            merchantId: transaction.merchantId,
            transactionReference: transaction.targetReference,
          })
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
      await manager.update(TransactionEntity, { id: target.id }, targetChanges(effects.target, transaction));
    }
    return changes;
  }
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
