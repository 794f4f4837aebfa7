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
jest.mock('@nestjs/typeorm', () => ({ InjectRepository: () => () => undefined }));

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
  let statements: string[];

  beforeEach(async () => {
    database = await openApiDatabase();
    const { dataSource } = database;
    writer = new SerialWriter(dataSource);
    outbox = new DeliveryRepository(
      writer,
      dataSource.getRepository(DeliveryEntity),
      dataSource.getRepository(DeliveryAttemptEntity),
      new InProcessMessagePort<ApiTopics>(() => undefined),
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

  it('records a batch of attempts in one INSERT and one UPDATE, each delivery with its own values', async () => {
    const transaction = { id: randomUUID(), deliveryCount: 0 };
    const events = laterEvents('c2');
    const pending = (await stageInOneWrite(transaction, events)).flatMap((delivery) =>
      delivery === null ? [] : [delivery],
    );
    // Held behind a write under way, the three records share the next one.
    let release!: () => void;
    const busy = writer.write(() => new Promise<void>((resolve) => (release = resolve)));
    const recorded = statementsOf(async () => {
      const records = pending.map((delivery, i) => outbox.record(delivery.id, delivered(1_000 * (i + 1))));
      release();
      await busy;
      await Promise.all(records);
    });
    // The UPDATE starts with its list of values (WITH v AS (VALUES …) UPDATE …).
    expect(await recorded).toEqual(['COMMIT', 'BEGIN', 'INSERT', 'WITH', 'COMMIT']);
    expect(
      (await deliveries()).map((row) => [row.state, row.attemptCount, row.firstAttemptAt, row.nextAttemptAt]),
    ).toEqual([
      ['delivered', 1, new Date(1_000).toISOString(), null],
      ['delivered', 1, new Date(2_000).toISOString(), null],
      ['delivered', 1, new Date(3_000).toISOString(), null],
    ]);
    expect(await database.dataSource.getRepository(DeliveryAttemptEntity).count()).toBe(3);
  });
});
