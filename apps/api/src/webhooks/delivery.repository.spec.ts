import { randomUUID } from 'node:crypto';
import type { TransactionEvent } from '@tps/contracts';
import { SerialWriter } from '@tps/database';
import type { PendingDelivery, RecordedAttempt } from '@tps/delivery';
import { InProcessMessagePort } from '@tps/messaging';
import type { ApiTopics } from '../messages/api-messages';
import { openApiDatabase, type ApiDatabase } from '../testing/api-database';
import { DeliveryAttemptEntity } from './delivery-attempt.entity';
import { DeliveryEntity } from './delivery.entity';
import { DeliveryRepository } from './delivery.repository';

// Nest ships as ES modules, which Jest does not load; the decorators only matter to DI.
jest.mock('@nestjs/common', () => ({ Injectable: () => () => undefined, Inject: () => () => undefined }));

const URL = 'http://127.0.0.1:9/hook';

function eventOf(status: TransactionEvent['status'], clientTransactionId: string): TransactionEvent {
  return {
    event_id: randomUUID(),
    status,
    merchant_id: 'demo-merchant',
    client_transaction_id: clientTransactionId,
  } as TransactionEvent;
}

/** The events after the acknowledgement of an approved charge: each calls for a webhook. */
function laterEvents(clientTransactionId: string): TransactionEvent[] {
  return (['CARD_PRESENTED', 'APPROVAL_REQUESTED', 'APPROVAL'] as const).map((status) =>
    eventOf(status, clientTransactionId),
  );
}

function delivered(at: number): RecordedAttempt {
  return {
    outcome: { statusCode: 200 },
    latencyMs: 3,
    answerExcerpt: 'ok',
    n: 1,
    at,
    firstAttemptAt: at,
    step: { state: 'delivered' },
  };
}

describe('DeliveryRepository on a real SQLite file', () => {
  let database: ApiDatabase;
  let writer: SerialWriter;
  let outbox: DeliveryRepository;
  /** Another process on the same database. */
  let other: DeliveryRepository;
  let statements: string[];
  /** Whether every live replica reads bodies from events (one process: yes). */
  let bodies: { fromEvents: boolean };

  beforeEach(async () => {
    bodies = { fromEvents: true };
    database = await openApiDatabase();
    const { dataSource } = database;
    writer = new SerialWriter(dataSource);
    outbox = new DeliveryRepository(
      writer,
      dataSource,
      new InProcessMessagePort<ApiTopics>(() => undefined),
      {
        replica: 'replica-a/',
        id: 'replica-a/000000000001',
        leaseMs: 30_000,
        unleasedAfterMs: 40_000,
        merchantCap: 56,
      },
      bodies,
    );
    other = new DeliveryRepository(
      writer,
      dataSource,
      new InProcessMessagePort<ApiTopics>(() => undefined),
      {
        replica: 'replica-b/',
        id: 'replica-b/000000000002',
        leaseMs: 30_000,
        unleasedAfterMs: 40_000,
        merchantCap: 56,
      },
      bodies,
    );
    statements = [];
    database.onStatement((sql) => statements.push(sql.split(' ')[0]));
  });

  afterEach(() => database.close());

  const deliveries = () =>
    database.dataSource.getRepository(DeliveryEntity).find({ order: { position: 'ASC' } });

  /** Stages a delivery for each event in one write, the last `replayed` ones checked first. */
  function stageInOneWrite(
    transaction: { id: string; deliveryCount: number },
    events: TransactionEvent[],
    replayed: TransactionEvent[] = [],
  ): Promise<Array<PendingDelivery | null>> {
    return writer.write(async (manager) => {
      const staging = outbox.stagingIn(manager);
      const staged = await Promise.all(
        events.map((event) => staging.stage(transaction, URL, event, 0, false)),
      );
      for (const event of replayed) staged.push(await staging.stage(transaction, URL, event, 0, true));
      await staging.insert();
      return staged;
    });
  }

  /** The statements `work` makes SQLite start, each by its first word. */
  async function statementsOf(work: () => Promise<unknown>): Promise<string[]> {
    await database.statementsSettled();
    statements = [];
    await work();
    await database.statementsSettled();
    return statements;
  }

  it("stages a run's deliveries in one INSERT, in order, and a replay within the run once", async () => {
    const transaction = { id: randomUUID(), deliveryCount: 0 };
    const events = laterEvents('c1');
    let staged: Array<PendingDelivery | null> = [];
    const run = await statementsOf(
      async () => (staged = await stageInOneWrite(transaction, events, [events[2]])),
    );
    expect(run).toEqual(['BEGIN', 'INSERT', 'COMMIT']);
    expect(staged.at(-1)).toBeNull();
    expect(transaction.deliveryCount).toBe(3);
    expect((await deliveries()).map((row) => [row.position, row.eventId, row.state])).toEqual(
      events.map((event, i) => [i + 1, event.event_id, 'pending']),
    );
  });

  it("signs each first attempt with the merchant's secret as the INSERT of its run reads it", async () => {
    await database.dataSource.query(
      "INSERT INTO merchants (merchant_id, secret_key, webhook_secret) VALUES ('demo-merchant', 'sk', 'whsec_one')",
    );
    const signed = await stageInOneWrite({ id: randomUUID(), deliveryCount: 0 }, laterEvents('c5'));
    expect(signed.map((delivery) => delivery?.firstTarget?.signingSecrets)).toEqual([
      ['whsec_one'],
      ['whsec_one'],
      ['whsec_one'],
    ]);

    await database.dataSource.query('UPDATE merchants SET webhook_secret = NULL');
    let unsigned: Array<PendingDelivery | null> = [];
    const run = await statementsOf(
      async () =>
        (unsigned = await stageInOneWrite({ id: randomUUID(), deliveryCount: 0 }, laterEvents('c6'))),
    );
    // No read of its own: the secret comes back from the INSERT.
    expect(run).toEqual(['BEGIN', 'INSERT', 'COMMIT']);
    expect(unsigned.map((delivery) => delivery?.firstTarget?.signingSecrets)).toEqual([[], [], []]);
  });

  it('signs with the rotated secret too while its overlap lasts, and with the new one only after it', async () => {
    const until = new Date(Date.now() + 60_000).toISOString();
    await database.dataSource.query(
      'INSERT INTO merchants (merchant_id, secret_key, webhook_secret, previous_webhook_secret, previous_webhook_secret_until) ' +
        "VALUES ('demo-merchant', 'sk', 'whsec_new', 'whsec_old', ?)",
      [until],
    );
    const [overlapping] = await stageInOneWrite({ id: randomUUID(), deliveryCount: 0 }, laterEvents('c7'));
    expect(overlapping?.firstTarget?.signingSecrets).toEqual(['whsec_new', 'whsec_old']);
    expect((await outbox.target(overlapping!.id))?.signingSecrets).toEqual(['whsec_new', 'whsec_old']);

    await database.dataSource.query('UPDATE merchants SET previous_webhook_secret_until = ?', [
      new Date(Date.now() - 1).toISOString(),
    ]);
    const [after] = await stageInOneWrite({ id: randomUUID(), deliveryCount: 0 }, laterEvents('c8'));
    expect(after?.firstTarget?.signingSecrets).toEqual(['whsec_new']);
    expect((await outbox.target(overlapping!.id))?.signingSecrets).toEqual(['whsec_new']);
  });

  /** The events as their write stores them: each envelope as simple-json text. */
  async function storeEvents(transactionId: string, events: TransactionEvent[]): Promise<void> {
    for (const [i, event] of events.entries()) {
      await database.dataSource.query(
        'INSERT INTO transaction_events (event_id, transaction_id, sequence, status, previous_status, occurred_at, envelope) ' +
          "VALUES (?, ?, ?, ?, '', '', ?)",
        [event.event_id, transactionId, i + 1, event.status, JSON.stringify(event)],
      );
    }
  }

  it("stores no body beside the event's while every replica reads bodies from events, and sends the event's bytes", async () => {
    const transaction = { id: randomUUID(), deliveryCount: 0 };
    const events = laterEvents('c9');
    await storeEvents(transaction.id, events);
    const staged = await stageInOneWrite(transaction, events);
    expect((await deliveries()).map((row) => row.payload)).toEqual(['', '', '']);
    for (const [i, event] of events.entries()) {
      expect(staged[i]?.firstTarget?.body).toBe(JSON.stringify(event));
      expect((await outbox.target(staged[i]!.id))?.body).toBe(JSON.stringify(event));
    }
  });

  it('stores the body in the delivery while a replica that reads only payloads is alive, and sends it', async () => {
    bodies.fromEvents = false;
    const transaction = { id: randomUUID(), deliveryCount: 0 };
    const [event] = laterEvents('c10');
    await storeEvents(transaction.id, [event]);
    const [first] = await stageInOneWrite(transaction, [event]);
    expect((await deliveries()).map((row) => row.payload)).toEqual([JSON.stringify(event)]);
    expect((await outbox.target(first!.id))?.body).toBe(JSON.stringify(event));
  });

  it('records a batch of attempts in one INSERT and one UPDATE, each delivery with its own values', async () => {
    const transaction = { id: randomUUID(), deliveryCount: 0 };
    const events = laterEvents('c2');
    const pending = (await stageInOneWrite(transaction, events)).flatMap((delivery) =>
      delivery === null ? [] : [delivery],
    );
    // Held behind a write under way, the three records share the next one.
    let release: (() => void) | undefined;
    const busy = writer.write(() => new Promise<void>((resolve) => (release = resolve)));
    // The write under way holds the writer once its transaction has begun and its work runs.
    while (release === undefined) await new Promise((resolve) => setTimeout(resolve, 1));
    const recorded = statementsOf(async () => {
      const records = pending.map((delivery, i) =>
        outbox.record(delivery.id, delivered(1_000 * (i + 1)), delivery.leaseEpoch),
      );
      release?.();
      await busy;
      await Promise.all(records);
    });
    // The UPDATE starts with its list of values (WITH v AS (VALUES …) UPDATE …); the attempts
    // follow it, for the deliveries it found still leased to this process.
    expect(await recorded).toEqual(['COMMIT', 'BEGIN', 'WITH', 'INSERT', 'COMMIT']);
    expect(
      (await deliveries()).map((row) => [row.state, row.attemptCount, row.firstAttemptAt, row.nextAttemptAt]),
    ).toEqual([
      ['delivered', 1, new Date(1_000).toISOString(), null],
      ['delivered', 1, new Date(2_000).toISOString(), null],
      ['delivered', 1, new Date(3_000).toISOString(), null],
    ]);
    expect(await database.dataSource.getRepository(DeliveryAttemptEntity).count()).toBe(3);
  });

  describe('leases', () => {
    const leases = async () =>
      (await deliveries()).map((row) => [row.position, row.leaseOwner, row.leaseUntil]);

    it('inserts a delivery already leased to the process that stages it, for a lease from then', async () => {
      await stageInOneWrite({ id: randomUUID(), deliveryCount: 0 }, laterEvents('c7'));
      expect(await leases()).toEqual(
        [1, 2, 3].map((position) => [position, 'replica-a/000000000001', new Date(30_000).toISOString()]),
      );
    });

    it('claims only heads whose lease ended, one transaction at a time, and never a held one', async () => {
      const first = { id: randomUUID(), deliveryCount: 0 };
      await stageInOneWrite(first, laterEvents('c8'));
      // Held until 30 s: nothing to claim before.
      expect(await other.claim(29_999, 60_000, 10)).toEqual([]);
      const claimed = await other.claim(30_001, 60_000, 10);
      // The head only: the later two wait behind it, though their leases ended too.
      expect(claimed.map((delivery) => [delivery.orderKey, delivery.position])).toEqual([[first.id, 1]]);
      expect((await leases())[0]).toEqual([1, 'replica-b/000000000002', new Date(60_000).toISOString()]);
      await other.record(claimed[0].id, delivered(30_001), claimed[0].leaseEpoch);
      // Once the head is settled, the next one is the head; its own process keeps it by renewing,
      // not by claiming it again.
      expect(await outbox.claim(30_002, 60_000, 10)).toEqual([]);
      expect((await other.claim(30_003, 60_000, 10)).map((delivery) => delivery.position)).toEqual([2]);
    });

    it('records an attempt only while its process holds the lease: a delivery taken over is not written', async () => {
      const transaction = { id: randomUUID(), deliveryCount: 0 };
      const [head] = (await stageInOneWrite(transaction, laterEvents('c9'))) as PendingDelivery[];
      const [taken] = await other.claim(30_001, 60_000, 10);
      expect(await outbox.record(head.id, delivered(30_002), head.leaseEpoch)).toBe('taken');
      expect((await deliveries())[0]).toMatchObject({ state: 'pending', attemptCount: 0 });
      expect(await database.dataSource.getRepository(DeliveryAttemptEntity).count()).toBe(0);
      expect(await other.record(head.id, delivered(30_003), taken.leaseEpoch)).toBe('recorded');
      expect((await deliveries())[0]).toMatchObject({ state: 'delivered', attemptCount: 1 });
    });

    it('records nothing of an attempt from an earlier lease of the same process, lost and claimed again since', async () => {
      const transaction = { id: randomUUID(), deliveryCount: 0 };
      const [head] = (await stageInOneWrite(transaction, laterEvents('c12'))) as PendingDelivery[];
      // Its lease ends unrenewed (the database away): the other process takes it, then stops.
      await other.claim(30_001, 60_000, 10);
      await other.release();
      const [again] = await outbox.claim(30_002, 60_000, 10);
      expect(again.id).toBe(head.id);
      // The attempt made under the first lease ends late: the delivery is the new lease's.
      expect(await outbox.record(head.id, delivered(30_003), head.leaseEpoch)).toBe('taken');
      expect((await deliveries())[0]).toMatchObject({ state: 'pending', attemptCount: 0 });
      expect(await outbox.record(again.id, delivered(30_004), again.leaseEpoch)).toBe('recorded');
    });

    it('tells a delivery erased while its attempt was in flight (a reset) from one taken over', async () => {
      const transaction = { id: randomUUID(), deliveryCount: 0 };
      const [head] = (await stageInOneWrite(transaction, laterEvents('c11'))) as PendingDelivery[];
      await database.dataSource.getRepository(DeliveryEntity).delete({ id: head.id });
      expect(await outbox.record(head.id, delivered(1_000), head.leaseEpoch)).toBe('gone');
      expect(await database.dataSource.getRepository(DeliveryAttemptEntity).count()).toBe(0);
    });

    it('renews what it holds, and gives it back for any process to claim at once', async () => {
      await stageInOneWrite({ id: randomUUID(), deliveryCount: 0 }, laterEvents('c10'));
      expect(await outbox.renew(45_000)).toHaveLength(3);
      expect((await leases()).map(([, , until]) => until)).toEqual(
        Array(3).fill(new Date(45_000).toISOString()),
      );
      expect(await other.claim(1_000, 31_000, 10)).toEqual([]);
      await outbox.release();
      expect((await leases()).map(([, owner, until]) => [owner, until])).toEqual(
        Array(3).fill([null, new Date(0).toISOString()]),
      );
      expect((await other.claim(1_000, 31_000, 10)).map((delivery) => delivery.position)).toEqual([1]);
      expect(await outbox.renew(50_000)).toEqual([]);
    });

    it('claims a delivery never leased (an older version wrote it) only once its due attempt is overdue', async () => {
      // As a process of the version before leases writes and attempts its deliveries: no lease.
      await stageInOneWrite({ id: randomUUID(), deliveryCount: 0 }, laterEvents('c12'));
      await database.dataSource.query(
        'UPDATE webhook_deliveries SET lease_owner = NULL, lease_until = NULL, next_attempt_at = ?',
        [new Date(5_000).toISOString()],
      );
      // That process attempts it when due and records it within a lease and a webhook timeout.
      expect(await other.claim(45_000, 75_000, 10)).toEqual([]);
      const claimed = await other.claim(45_001, 75_001, 10);
      expect(claimed.map((delivery) => delivery.position)).toEqual([1]);
      expect((await leases())[0]).toEqual([1, 'replica-b/000000000002', new Date(75_001).toISOString()]);
      expect(await outbox.claim(45_002, 75_002, 10)).toEqual([]);
    });

    it('on SQLite, one process per file: the one that starts adopts every pending delivery at once', async () => {
      await stageInOneWrite({ id: randomUUID(), deliveryCount: 0 }, laterEvents('c11'));
      const adopted = await other.adopt();
      expect(adopted.map((delivery) => delivery.position)).toEqual([1, 2, 3]);
      expect((await leases()).map(([, owner]) => owner)).toEqual(Array(3).fill('replica-b/000000000002'));
    });
  });
});
