import { followUpTargetReference, mayAdopt, namedReferenceOf, type AdoptableOrder } from './adoption';
import { followingStatus } from './event-following';
import type { LifecycleStatus } from './lifecycle';
import { outcomeChanges, outcomeTargetReference } from './outcome-changes';
import type { EventEnvelope, EventOutcome, TransactionRecord } from './transaction-record';

/** One event of a terminal's run, with the outcome beside a final one and the order beside an acknowledgement. */
export interface RunLink {
  event: EventEnvelope;
  outcome?: EventOutcome;
  order?: AdoptableOrder;
}

/** The terminal whose link a run came by. */
export interface RunTerminal {
  serialNumber: string;
  merchantId: string;
}

/** What deciding a run reads: rows as stored, inside the write that stores the run. */
export interface EventRunReads<R extends TransactionRecord> {
  /** The transaction an event names. */
  byName(merchantId: string, clientTransactionId: string): Promise<R | null>;
  /** A transaction of this merchant by its own reference. */
  byReference(merchantId: string, transactionReference: string): Promise<R | null>;
  /** Whether an event is stored already. */
  isStored(eventId: string): Promise<boolean>;
}

/** Makes the record of a transaction adopted from its order (fingerprint, id: the caller's). */
export type RecordFromOrder<R, Order> = (
  order: Order,
  details: { targetReference: string | null; createdAt: Date },
) => R;

/** An event to store, the next of its transaction's. */
export interface EventRow<E> {
  eventId: string;
  transactionId: string;
  sequence: number;
  status: LifecycleStatus;
  previousStatus: LifecycleStatus | '';
  occurredAt: string;
  envelope: E;
}

/** A transaction as the run leaves it, and what changed on it (empty when nothing did). */
export interface RowUpdate<R> {
  record: R;
  changes: Partial<R>;
}

export type RunResult<R, L> =
  { link: L; result: 'appended' | 'duplicate'; transaction: R } | { link: L; result: 'unknown' };

/** Everything a run stores, in the order it is to be stored. */
export interface EventRunDecision<R, L extends RunLink> {
  /** Transactions recorded from their terminal's acknowledgement, as first recorded. */
  inserts: R[];
  /** Changes on transactions that follow-ups of the run acted on, and that no event of it names. */
  targetUpdates: Array<RowUpdate<R>>;
  /** The events stored by the run, in order. */
  events: Array<EventRow<L['event']>>;
  /** One per event up to the refused one: appended, stored already, or not the terminal's. */
  results: Array<RunResult<R, L>>;
  /** Every transaction the run's events named, as the run leaves it. */
  updates: Array<RowUpdate<R>>;
  /** Why the event after the decided ones does not follow its transaction; absent when all do. */
  refusal?: Error;
}

interface Row<R> {
  record: R;
  changes: Partial<R>;
  /** Named by an event of the run (not only acted on by a follow-up). */
  named: boolean;
}

/** The rows one run has read so far, each once, as the run has changed them. */
class RunRows<R extends TransactionRecord> {
  private readonly rows = new Map<string, Row<R>>();
  private readonly unknownNames = new Set<string>();

  constructor(private readonly reads: EventRunReads<R>) {}

  async byName(merchantId: string, clientTransactionId: string): Promise<Row<R> | null> {
    const key = `${merchantId}:${clientTransactionId}`;
    if (this.unknownNames.has(key)) return null;
    let row = this.find((r) => r.merchantId === merchantId && r.clientTransactionId === clientTransactionId);
    if (row === undefined) {
      const stored = await this.reads.byName(merchantId, clientTransactionId);
      if (stored === null) {
        this.unknownNames.add(key);
        return null;
      }
      row = this.add(stored);
    }
    row.named = true;
    return row;
  }

  /** As this run has it (a run may hold a charge's approval and a follow-up on it), else as stored. */
  async byReference(merchantId: string, reference: string): Promise<R | null> {
    const held = this.find((r) => r.merchantId === merchantId && r.transactionReference === reference);
    if (held !== undefined) return held.record;
    const stored = await this.reads.byReference(merchantId, reference);
    return stored === null ? null : this.add(stored).record;
  }

  adopted(record: R): Row<R> {
    this.unknownNames.delete(`${record.merchantId}:${record.clientTransactionId}`);
    const row = this.add(record);
    row.named = true;
    return row;
  }

  change(row: Row<R>, changes: Partial<R>): void {
    Object.assign(row.record, changes);
    Object.assign(row.changes, changes);
  }

  rowOf(record: R): Row<R> {
    const row = this.rows.get(record.id);
    if (row === undefined) throw new Error(`transaction ${record.id} was not read by this run`);
    return row;
  }

  /** Every row an event named; and every other row that changed (a follow-up's target). */
  updates(): { named: Array<RowUpdate<R>>; targets: Array<RowUpdate<R>> } {
    const named: Array<RowUpdate<R>> = [];
    const targets: Array<RowUpdate<R>> = [];
    for (const { record, changes, named: isNamed } of this.rows.values()) {
      if (isNamed) named.push({ record, changes });
      else if (Object.keys(changes).length > 0) targets.push({ record, changes });
    }
    return { named, targets };
  }

  private find(matches: (record: R) => boolean): Row<R> | undefined {
    for (const row of this.rows.values()) if (matches(row.record)) return row;
    return undefined;
  }

  /** A copy: the run changes its rows, never what it was given. */
  private add(stored: R): Row<R> {
    const row: Row<R> = { record: { ...stored }, changes: {}, named: false };
    this.rows.set(stored.id, row);
    return row;
  }
}

/**
 * Decides a terminal's run of events, in order: each event must follow its transaction's state
 * (the lifecycle's transition function); one stored already (a replay) changes nothing; one of
 * another terminal's transaction is not the terminal's to tell. The acknowledgement of a
 * transaction with no record is adopted from its order (`mayAdopt`). An outcome is stored once,
 * with its approval's effects on the transaction and on the one a follow-up acted on. The run
 * stops at the first event that does not follow: the ones before it are decided, it and the rest
 * are not. Reads through `reads` only; writes nothing.
 */
export async function decideEventRun<R extends TransactionRecord, L extends RunLink>(
  terminal: RunTerminal,
  links: L[],
  reads: EventRunReads<R>,
  recordFromOrder: RecordFromOrder<R, NonNullable<L['order']>>,
): Promise<EventRunDecision<R, L>> {
  const rows = new RunRows(reads);
  const inserts: R[] = [];
  const events: Array<EventRow<L['event']>> = [];
  const results: Array<RunResult<R, L>> = [];
  const storedInRun = new Set<string>();
  const decided = (refusal?: Error): EventRunDecision<R, L> => {
    const { named, targets } = rows.updates();
    const decision = { inserts, targetUpdates: targets, events, results, updates: named };
    return refusal === undefined ? decision : { ...decision, refusal };
  };

  const adopt = async ({ event, order }: L): Promise<Row<R> | null> => {
    if (!mayAdopt(terminal.merchantId, event, order)) return null;
    const named = namedReferenceOf(order);
    const targetReference =
      named === null ? null : followUpTargetReference(await rows.byReference(order.merchantId, named), named);
    const record = recordFromOrder(order, {
      targetReference,
      createdAt: new Date(event.occurred_at),
    });
    inserts.push({ ...record });
    return rows.adopted(record);
  };

  for (const link of links) {
    const { event } = link;
    const row = (await rows.byName(event.merchant_id, event.client_transaction_id)) ?? (await adopt(link));
    if (row === null || row.record.terminalSerial !== terminal.serialNumber) {
      results.push({ link, result: 'unknown' });
      continue;
    }
    const transaction = row.record;
    const status = followingStatus(transaction, event);
    if (status instanceof Error) {
      // Only an event that does not follow can be one stored already: the lifecycle never goes
      // back to the state an event left.
      if (storedInRun.has(event.event_id) || (await reads.isStored(event.event_id))) {
        results.push({ link, result: 'duplicate', transaction });
        continue;
      }
      return decided(status);
    }
    // An approved follow-up changes the transaction it acted on, in the same write.
    const targetReference = outcomeTargetReference(transaction, link.outcome);
    const target =
      targetReference === null ? null : await rows.byReference(transaction.merchantId, targetReference);
    const changes = outcomeChanges(transaction, link.outcome, target);
    if (target !== null && changes.target !== null) {
      rows.change(rows.rowOf(target), changes.target as Partial<R>);
    }
    const sequence = transaction.eventCount + 1;
    events.push({
      eventId: event.event_id,
      transactionId: transaction.id,
      sequence,
      status,
      previousStatus: event.previous_status,
      occurredAt: event.occurred_at,
      envelope: event,
    });
    storedInRun.add(event.event_id);
    const own: Partial<TransactionRecord> = { ...changes.own, status, eventCount: sequence };
    if (status === 'TERMINAL_ACKNOWLEDGED') own.acknowledgement = event;
    // The caller's outcome and envelope types are its records' (R's) own.
    rows.change(row, own as Partial<R>);
    results.push({ link, result: 'appended', transaction });
  }
  return decided();
}
