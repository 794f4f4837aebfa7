import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import {
  anyOf,
  EntityTable,
  LeasedQueue,
  SerialWriter,
  portsOf,
  sqlOf,
  type DeliveryRows,
  type LeasedTable,
} from '@tps/database';
import {
  GroupCommit,
  destinationOf,
  type DeliveryStore,
  type DestinationSlots,
  type LeaseStore,
  type ListenerAnswer,
  type DeliveryTarget,
  type PendingDelivery,
  type RecordedAttempt,
  type RecordOutcome,
} from '@tps/delivery';
import type { TransactionEvent } from '@tps/contracts';
import { API_MESSAGES, type ApiMessages } from '../messages/api-messages';
import { DeliveryAttemptEntity } from './delivery-attempt.entity';
import { DELIVERY_BODY_RULE, type DeliveryBodyRule } from './delivery-body-rule';
import { DeliveryEntity, EVENT_BODY } from './delivery.entity';
import { DeliveryOwner } from './delivery-owner';
import { signingOf } from './signing-secrets';

/** The transaction a delivery is staged for, with its counter of staged deliveries. */
export interface CountedTransaction {
  id: string;
  deliveryCount: number;
}

interface UnrecordedAttempt {
  id: string;
  attempt: RecordedAttempt;
  leaseEpoch: number;
  /**
   * Set by its write: recorded while this process still held the delivery's lease; else whether
   * another process holds it now ('taken') or it is stored no more ('gone').
   */
  outcome?: RecordOutcome;
}

export interface DeliveryWithAttempts {
  delivery: DeliveryEntity;
  attempts: DeliveryAttemptEntity[];
}

const iso = (ms: number): string => new Date(ms).toISOString();

const nextAttemptOf = ({ step }: RecordedAttempt): string | null =>
  step.state === 'pending' ? iso(step.nextAttemptAt) : null;

function attemptRow({ id, attempt }: UnrecordedAttempt): DeliveryAttemptEntity {
  const { outcome } = attempt;
  return {
    deliveryId: id,
    n: attempt.n,
    at: iso(attempt.at),
    statusCode: 'statusCode' in outcome ? outcome.statusCode : null,
    error: 'error' in outcome ? outcome.error : null,
    latencyMs: attempt.latencyMs,
    answerExcerpt: attempt.answerExcerpt,
    listenerAnswers: attempt.listeners === undefined ? null : [...attempt.listeners],
    nextAttemptAt: nextAttemptOf(attempt),
  };
}

function deliveryChanges(attempt: RecordedAttempt): Partial<DeliveryEntity> {
  const { step } = attempt;
  return {
    state: step.state,
    failure: step.state === 'failed' ? step.reason : null,
    attemptCount: attempt.n,
    firstAttemptAt: iso(attempt.firstAttemptAt),
    nextAttemptAt: nextAttemptOf(attempt),
  };
}

/** The fields a new delivery takes from its event (or from the delivery it repeats). */
type DeliveryFields = Pick<
  DeliveryEntity,
  | 'merchantId'
  | 'transactionId'
  | 'clientTransactionId'
  | 'eventId'
  | 'eventStatus'
  | 'url'
  | 'payload'
  | 'redeliveryOf'
> & { now: number; lease: Lease };

/** Who holds a new delivery, and until when (epoch ms). */
interface Lease {
  owner: string;
  until: number;
}

/** A delivery not yet attempted, at `position` in its transaction's order. */
function newDelivery(position: number, fields: DeliveryFields): DeliveryEntity {
  return {
    id: randomUUID(),
    merchantId: fields.merchantId,
    transactionId: fields.transactionId,
    position,
    clientTransactionId: fields.clientTransactionId,
    eventId: fields.eventId,
    eventStatus: fields.eventStatus,
    url: fields.url,
    payload: fields.payload,
    state: 'pending',
    failure: null,
    attemptCount: 0,
    firstAttemptAt: null,
    nextAttemptAt: iso(fields.now),
    redeliveryOf: fields.redeliveryOf,
    createdAt: iso(fields.now),
    // Leased to the process that writes it, which sends it at once (no claim in between).
    leaseOwner: fields.lease.owner,
    leaseUntil: iso(fields.lease.until),
    leaseEpoch: 0,
  };
}

/**
 * The deliveries of the events one write stores. `stage` gives each its position from the
 * transaction's delivery counter (which that write stores with the transaction); a replayed event
 * (`checkFirst`) may have its delivery already (made once: then null comes back), a new one cannot,
 * since an event and its delivery are stored together. A delivery carries what its first attempt
 * sends. `insert` stores every staged delivery in one statement, before the write ends, and
 * completes what they carry with the merchant's signing secret, which that statement reads.
 */
export interface DeliveryStaging {
  stage: (
    transaction: CountedTransaction,
    url: string,
    event: TransactionEvent,
    now: number,
    checkFirst: boolean,
  ) => Promise<PendingDelivery | null>;
  insert: () => Promise<void>;
}

export function pendingOf(delivery: DeliveryEntity): PendingDelivery {
  return {
    id: delivery.id,
    orderKey: delivery.transactionId,
    position: delivery.position,
    destination: destinationOf(delivery.url, delivery.merchantId),
    tenant: delivery.merchantId,
    attempts: delivery.attemptCount,
    firstAttemptAt: delivery.firstAttemptAt === null ? null : Date.parse(delivery.firstAttemptAt),
    nextAttemptAt: Date.parse(delivery.nextAttemptAt ?? delivery.createdAt),
    leaseEpoch: delivery.leaseEpoch,
  };
}

/** The columns a PendingDelivery is made of, as a lease statement returns them. */
const PENDING_COLUMNS =
  'id, merchant_id, transaction_id, position, url, attempt_count, first_attempt_at, next_attempt_at, created_at, lease_epoch';

interface PendingRow {
  id: string;
  merchant_id: string;
  transaction_id: string;
  position: number | string;
  url: string;
  attempt_count: number | string;
  first_attempt_at: string | null;
  next_attempt_at: string | null;
  created_at: string;
  lease_epoch: number | string;
}

function pendingOfRow(row: PendingRow): PendingDelivery {
  return {
    id: row.id,
    orderKey: row.transaction_id,
    position: Number(row.position),
    destination: destinationOf(row.url, row.merchant_id),
    tenant: row.merchant_id,
    attempts: Number(row.attempt_count),
    firstAttemptAt: row.first_attempt_at === null ? null : Date.parse(row.first_attempt_at),
    nextAttemptAt: Date.parse(row.next_attempt_at ?? row.created_at),
    leaseEpoch: Number(row.lease_epoch),
  };
}

/**
 * The outbox's leases (contract, "Several replicas"): a pending delivery is claimed only as the
 * head of its transaction's queue, whoever holds the deliveries before it. A delivery never leased
 * was written by a process of the version before leases, which attempts it unleased (a rolling
 * deploy, docs/contract.md "Rolling deploys"): it is taken once its attempt was due longer ago
 * than that process, alive, would have taken to make and record it.
 */
const LEASED_DELIVERIES: LeasedTable = {
  table: 'webhook_deliveries',
  id: 'id',
  owner: 'lease_owner',
  leaseUntil: 'lease_until',
  epoch: 'lease_epoch',
  pending: "{row}.state = 'pending'",
  order: 'next_attempt_at',
  queue: { key: 'transaction_id', position: 'position' },
  // A claim takes the head of every merchant's backlog, and within it of every URL's, before
  // anyone's second, and no more of a merchant than its cap leaves (contract, "Webhook delivery",
  // Fairness): the URL stands for its destination.
  share: ['{row}.merchant_id', '{row}.url'],
  unleased: { due: 'COALESCE({row}.next_attempt_at, {row}.created_at)' },
};

/**
 * The slots of the destinations (contract §13), a row each, leased like deliveries: a slot that
 * no process holds (given back, never taken, or whose holder's lease ended) is free.
 */
const LEASED_SLOTS = {
  table: 'webhook_destination_slots',
  // A slot's number names it among its destination's: taking or giving one picks the destination.
  id: 'slot',
  owner: 'owner',
  leaseUntil: 'lease_until',
  order: 'slot',
};

/** Destinations whose slot rows this process has made sure of, at most this many remembered. */
const SEEDED_DESTINATIONS = 4096;

/** The webhook outbox: deliveries and their attempts, every write in the shared serial writer. */
@Injectable()
export class DeliveryRepository implements DeliveryStore, LeaseStore {
  private readonly records: GroupCommit<UnrecordedAttempt>;
  private readonly leases: LeasedQueue;
  private readonly slots: LeasedQueue;
  private readonly table: EntityTable<DeliveryEntity>;
  private readonly attemptTable: EntityTable<DeliveryAttemptEntity>;
  private readonly rows: DeliveryRows<DeliveryEntity>;

  constructor(
    private readonly writer: SerialWriter,
    private readonly reads: DataSource,
    @Inject(API_MESSAGES) private readonly messages: ApiMessages,
    private readonly owner: DeliveryOwner,
    @Inject(DELIVERY_BODY_RULE) private readonly bodies: DeliveryBodyRule,
  ) {
    this.table = new EntityTable(reads, DeliveryEntity);
    this.rows = portsOf(reads).deliveryRows(reads, this.table);
    this.leases = new LeasedQueue(
      { ...LEASED_DELIVERIES, shareCap: owner.merchantCap },
      writer,
      reads,
      owner,
    );
    this.slots = new LeasedQueue(LEASED_SLOTS, writer, reads, owner);
    this.attemptTable = new EntityTable(reads, DeliveryAttemptEntity);
    // Attempts and stored deliveries only: the one other write of a stored delivery (expiry,
    // redelivery) has no keys, and an event's write only adds deliveries.
    this.records = new GroupCommit((take) =>
      this.writer.write(async (manager) => {
        const sql = sqlOf(manager);
        const batch = take();
        // Only what this process still holds, under the lease the attempt was made in: a delivery
        // another process took is its own now, and one claimed again since is the new lease's.
        const kept = new Set(
          await this.table.updateEachWhere(
            sql,
            'id',
            batch.map(({ id, attempt, leaseEpoch }) => ({ id, leaseEpoch, ...deliveryChanges(attempt) })),
            { leaseOwner: this.owner.id },
            ['leaseEpoch'],
          ),
        );
        const missed = batch.filter((item) => !kept.has(item.id)).map((item) => item.id);
        const stored = await this.rows.stored(manager, missed);
        for (const item of batch) {
          item.outcome = kept.has(item.id) ? 'recorded' : stored.has(item.id) ? 'taken' : 'gone';
        }
        await this.attemptTable.insert(
          sql,
          batch.filter((item) => item.outcome === 'recorded').map(attemptRow),
        );
      }),
    );
  }

  /** Stages the deliveries of the events one write stores, and inserts them in that write. */
  stagingIn(manager: EntityManager): DeliveryStaging {
    const sql = sqlOf(manager);
    const staged: DeliveryEntity[] = [];
    const targets = new Map<string, DeliveryTarget>();
    return {
      stage: async (transaction, url, event, now, checkFirst) => {
        if (
          checkFirst &&
          (staged.some((delivery) => delivery.eventId === event.event_id) ||
            (await this.table.findOne(sql, { eventId: event.event_id })) !== null)
        ) {
          return null;
        }
        transaction.deliveryCount += 1;
        // The event's envelope as its write stores it (simple-json): the same bytes.
        const body = JSON.stringify(event);
        const delivery = newDelivery(transaction.deliveryCount, {
          lease: this.leaseFrom(now),
          merchantId: event.merchant_id,
          transactionId: transaction.id,
          clientTransactionId: event.client_transaction_id,
          eventId: event.event_id,
          eventStatus: event.status,
          url,
          payload: this.bodies.fromEvents ? EVENT_BODY : body,
          redeliveryOf: null,
          now,
        });
        staged.push(delivery);
        // Signed with the secret the INSERT reads (insert), before the write ends.
        const firstTarget: DeliveryTarget = {
          url,
          body,
          eventId: delivery.eventId,
          signingSecrets: [],
          merchantId: delivery.merchantId,
        };
        targets.set(delivery.id, firstTarget);
        return { ...pendingOf(delivery), firstTarget };
      },
      insert: async () => {
        // Signed with the secrets the INSERT itself reads: one statement fewer per run.
        const secrets = await this.rows.insertSigned(manager, staged.splice(0));
        const now = Date.now();
        for (const [id, stored] of secrets) {
          const target = targets.get(id);
          if (target !== undefined) Object.assign(target, signingOf(stored, now));
        }
        targets.clear();
      },
    };
  }

  /** A fresh delivery of the same event (same event_id and body); null if not the merchant's. */
  redeliver(merchantId: string, id: string, now: number): Promise<DeliveryEntity | null> {
    return this.writer.write(async (manager) => {
      const sql = sqlOf(manager);
      const original = await this.table.findOne(sql, { id, merchantId });
      if (original === null) return null;
      // The transaction's counter gives positions to every delivery of it, redeliveries included.
      const position = await this.rows.nextPosition(manager, original.transactionId);
      const delivery = newDelivery(position, {
        ...original,
        payload: await this.payloadOf(manager, original),
        redeliveryOf: original.id,
        now,
        lease: this.leaseFrom(now),
      });
      await this.table.insert(sql, delivery);
      return delivery;
    });
  }

  /** What a new delivery of the same event stores as its payload (see DeliveryBodies). */
  private async payloadOf(within: EntityManager, original: DeliveryEntity): Promise<string> {
    if (this.bodies.fromEvents) return EVENT_BODY;
    if (original.payload !== EVENT_BODY) return original.payload;
    return (await this.rows.eventBody(within, original.eventId)) ?? original.payload;
  }

  /**
   * The destinations' slots, shared by the processes on PostgreSQL; none on SQLite, whose file
   * serves one process: its own count of attempts in flight is the whole share.
   */
  sharedSlots(share: number): DestinationSlots | undefined {
    if (!this.slots.shared) return undefined;
    const seeded = new Set<string>();
    return {
      take: async (destination) => {
        if (!seeded.has(destination)) {
          // One row per slot, made once by whichever process sends there first.
          await this.rows.seedSlots(destination, share);
          if (seeded.size >= SEEDED_DESTINATIONS) seeded.clear();
          seeded.add(destination);
        }
        const now = Date.now();
        const [taken] = await this.slots.claim<{ slot: number | string }>(
          now,
          now + this.owner.leaseMs,
          1,
          'slot',
          {
            where: '{row}.destination = ? AND {row}.slot <= ?',
            params: [destination, share],
          },
        );
        return taken === undefined ? null : Number(taken.slot);
      },
      give: (destination, slot) =>
        this.slots.release({
          where: '{row}.destination = ? AND {row}.slot = ?',
          params: [destination, slot],
        }),
    };
  }

  private leaseFrom(now: number): Lease {
    return { owner: this.owner.id, until: now + this.owner.leaseMs };
  }

  /**
   * A process starting takes the pending deliveries that are its own (LeaseAdapter.adopts): every
   * one on SQLite, as before leases; on PostgreSQL its replica's predecessor's (same REPLICA_ID),
   * which is gone, while other replicas' deliveries are claimed when their leases end.
   */
  async adopt(): Promise<PendingDelivery[]> {
    const rows = await this.leases.adopt<PendingRow>(PENDING_COLUMNS);
    return rows.map(pendingOfRow).sort((a, b) => a.position - b.position);
  }

  async claim(now: number, until: number, limit: number): Promise<PendingDelivery[]> {
    return (await this.leases.claim<PendingRow>(now, until, limit, PENDING_COLUMNS)).map(pendingOfRow);
  }

  async renew(until: number): Promise<string[]> {
    const held = await this.leases.renew(until);
    await this.slots.renew(until);
    return held;
  }

  async release(): Promise<void> {
    await this.leases.release();
    await this.slots.release();
  }

  async target(id: string): Promise<DeliveryTarget | null> {
    const stored = await this.rows.target(id);
    if (stored === undefined) return null;
    const { secrets, ...target } = stored;
    return { ...target, ...signingOf(secrets, Date.now()) };
  }

  /**
   * Records an attempt and the delivery's new state together. Attempts that end while an earlier
   * write is under way share the next transaction (a group commit): each is still all-or-nothing,
   * and a busy outbox pays one commit per batch instead of one per attempt.
   */
  async record(id: string, attempt: RecordedAttempt, leaseEpoch: number): Promise<RecordOutcome> {
    const outcome = attempt.step.state === 'pending' ? 'retrying' : attempt.step.state;
    const item: UnrecordedAttempt = { id, attempt, leaseEpoch };
    await this.records.add(item);
    if (item.outcome !== 'recorded') return item.outcome ?? 'taken';
    this.messages.publish('delivery.attempt', { deliveryId: id, outcome });
    return 'recorded';
  }

  /** How many of the merchant's deliveries are pending (its hard cap, contract §22). */
  async countPending(merchantId: string): Promise<number> {
    return this.table.count(sqlOf(this.reads.manager), { merchantId, state: 'pending' });
  }

  /** How many deliveries are pending, and when the oldest of them was staged (for the metrics). */
  backlog(): Promise<{ depth: number; oldestCreatedAt: string | null }> {
    return this.rows.backlog();
  }

  earlierPending({ orderKey, position }: PendingDelivery): Promise<boolean> {
    return this.rows.earlierPending(orderKey, position);
  }

  /** Every listener answer of an attempt already recorded, once the slowest came (contract §6.1). */
  async recordListeners(id: string, n: number, listeners: readonly ListenerAnswer[]): Promise<void> {
    await this.writer.write((manager) =>
      this.attemptTable.update(sqlOf(manager), { deliveryId: id, n }, { listenerAnswers: [...listeners] }),
    );
  }

  async expire(id: string, leaseEpoch: number): Promise<void> {
    await this.writer.write((manager) =>
      this.table.update(
        sqlOf(manager),
        { id, leaseOwner: this.owner.id, leaseEpoch },
        { state: 'failed', failure: 'window_exceeded', nextAttemptAt: null },
      ),
    );
  }

  /** The merchant's deliveries of one transaction, in order, each with its attempts. */
  async listForTransaction(merchantId: string, clientTransactionId: string): Promise<DeliveryWithAttempts[]> {
    const deliveries = await this.table.find(
      sqlOf(this.reads.manager),
      { merchantId, clientTransactionId },
      { orderBy: [['position', 'ASC']] },
    );
    const attempts = await this.attemptsOf(deliveries.map((d) => d.id));
    return deliveries.map((delivery) => ({
      delivery,
      attempts: attempts.filter((a) => a.deliveryId === delivery.id),
    }));
  }

  private attemptsOf(deliveryIds: string[]): Promise<DeliveryAttemptEntity[]> {
    if (deliveryIds.length === 0) return Promise.resolve([]);
    return this.attemptTable.find(
      sqlOf(this.reads.manager),
      { deliveryId: anyOf(deliveryIds) },
      { orderBy: [['n', 'ASC']] },
    );
  }
}
