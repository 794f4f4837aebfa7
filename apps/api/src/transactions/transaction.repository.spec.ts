import { randomUUID } from 'node:crypto';
import type { AuthorizationResponse, TransactionEvent } from '@tps/contracts';
import { SerialWriter } from '@tps/database';
import type { LifecycleStatus, OperationType } from '@tps/domain';
import type { LinkEvent, OperationOrder } from '@tps/link';
import { openApiDatabase, type ApiDatabase } from '../testing/api-database';
import { TransactionEntity } from './transaction.entity';
import { transactionFromOrder } from './transaction-from-order';
import { RECENT_ROW_MS, RecentTransactions } from './recent-transactions';
import { TransactionRepository } from './transaction.repository';

// Nest ships as ES modules, which Jest does not load; the decorators only matter to DI.
jest.mock('@nestjs/common', () => ({ Injectable: () => () => undefined }));

const MERCHANT = 'demo-merchant';
const TERMINAL = { serialNumber: 'SIM0000001', merchantId: MERCHANT };
const AMOUNT = {
  iva: 1600,
  subtotalIva: 10000,
  subtotalIva0: 0,
  extraTaxes: { airportTax: 0, iac: 0, ice: 0, travelAgency: 0 },
};
const LIFECYCLE: LifecycleStatus[] = [
  'TERMINAL_ACKNOWLEDGED',
  'CARD_PRESENTED',
  'APPROVAL_REQUESTED',
  'APPROVAL',
];

function orderOf(type: OperationType, transactionReference?: string): OperationOrder {
  return {
    type,
    mode: 'sync',
    form: 'cloud',
    merchantId: MERCHANT,
    clientTransactionId: randomUUID(),
    amount: AMOUNT,
    metadata: {},
    eventsWebhookUrl: '',
    transactionReference,
    clockOffsetMs: 0,
  };
}

/** A terminal's whole approved run of one order, as its uplink sends it. */
function approvedRun(order: OperationOrder, reference: string): LinkEvent[] {
  return LIFECYCLE.map((status, i) => {
    const event = {
      event_id: randomUUID(),
      previous_status: i === 0 ? '' : LIFECYCLE[i - 1],
      occurred_at: new Date().toISOString(),
      status,
      merchant_id: MERCHANT,
      client_transaction_id: order.clientTransactionId,
    } as TransactionEvent;
    const link: LinkEvent = { event };
    if (i === 0) link.order = order;
    if (status === 'APPROVAL') {
      const response = {
        approved: true,
        responseCode: '00',
        rawResponse: { transaction_reference: reference, card_type: 'CREDIT' },
        timestamp: Date.now(),
      } as unknown as AuthorizationResponse;
      link.outcome = { kind: 'acquirer', response };
    }
    return link;
  });
}

describe('TransactionRepository.appendEvents on a real SQLite file', () => {
  let database: ApiDatabase;
  let repository: TransactionRepository;
  /** Another API process on the same database: it knows nothing of this one's recent rows. */
  let uplink: TransactionRepository;

  /** A process's repository on the test's database, its recent rows timed by `now`. */
  function repositoryOf(now: () => number): TransactionRepository {
    const { dataSource } = database;
    return new TransactionRepository(new SerialWriter(dataSource), dataSource, new RecentTransactions(now));
  }

  beforeEach(async () => {
    database = await openApiDatabase();
    // A clock that stands still: a row this process wrote stays recent however slow the machine.
    repository = repositoryOf(() => 0);
    uplink = repositoryOf(() => 0);
  });

  afterEach(() => database.close());

  /** Stores nothing beside the events. */
  const nothingAlongside = () => ({ each: async () => null, end: async () => undefined });

  const stored = (clientTransactionId: string) => repository.findByClientId(MERCHANT, clientTransactionId);

  it('one run with a charge and a refund of it: the refund finds the charge as the run has it', async () => {
    const reference = randomUUID();
    const charge = orderOf('charge');
    const refund = orderOf('refund', reference);
    const run = [...approvedRun(charge, reference), ...approvedRun(refund, randomUUID())];
    const appended = await repository.appendEvents(TERMINAL, run, nothingAlongside);
    expect(appended.refusal).toBeUndefined();
    expect(appended.appended.map((a) => a.result)).toEqual(Array(8).fill('appended'));

    const charged = await stored(charge.clientTransactionId);
    expect(charged).toMatchObject({
      status: 'APPROVAL',
      transactionReference: reference,
      businessState: 'REFUNDED',
      refundedTotal: 11600,
      eventCount: 4,
    });
    expect(await stored(refund.clientTransactionId)).toMatchObject({
      status: 'APPROVAL',
      targetReference: reference,
      eventCount: 4,
    });
    expect((await repository.eventsOf(charged?.id ?? '')).map((e) => [e.sequence, e.status])).toEqual(
      LIFECYCLE.map((status, i) => [i + 1, status]),
    );
  });

  /** Records an order as the use case does before it hands it to the terminal: no event yet. */
  async function record(order: OperationOrder): Promise<TransactionEntity> {
    const recorded = await repository.insertNew(
      transactionFromOrder(order, TERMINAL.serialNumber, {
        fingerprint: 'f',
        targetReference: null,
        createdAt: new Date(),
      }),
    );
    if (recorded === null) throw new Error('not recorded');
    return recorded;
  }

  /** The statements `work` makes SQLite start, each by its first words. */
  async function statementsOf(work: () => Promise<unknown>): Promise<string[]> {
    const statements: string[] = [];
    await database.statementsSettled();
    database.onStatement((sql) => statements.push(sql.split(' ').slice(0, 4).join(' ')));
    await work();
    await database.statementsSettled();
    return statements;
  }

  it('takes the row it has just inserted for a reply, instead of reading it, and stores the same', async () => {
    const charge = orderOf('charge');
    const recorded = await record(charge);
    const reference = randomUUID();
    const statements = await statementsOf(() =>
      repository.appendEvents(TERMINAL, approvedRun(charge, reference), nothingAlongside),
    );
    expect(statements.filter((sql) => sql.startsWith('SELECT'))).toEqual([]);
    expect(await stored(charge.clientTransactionId)).toMatchObject({
      status: 'APPROVAL',
      transactionReference: reference,
      businessState: 'SETTLED',
      eventCount: 4,
    });
    // The caller's object is not the run's.
    expect(recorded.status).toBeNull();
  });

  it('a row just inserted that moved on meanwhile (events stored up the uplink) is read after all', async () => {
    const charge = orderOf('charge');
    await record(charge);
    const run = approvedRun(charge, randomUUID());
    await uplink.appendEvents(TERMINAL, run.slice(0, 2), nothingAlongside);
    const reply = await repository.appendEvents(TERMINAL, run, nothingAlongside);
    expect(reply.appended.map((a) => a.result)).toEqual(['duplicate', 'duplicate', 'appended', 'appended']);
    const charged = await stored(charge.clientTransactionId);
    expect(charged).toMatchObject({ status: 'APPROVAL', eventCount: 4 });
    expect((await repository.eventsOf(charged?.id ?? '')).map((e) => [e.sequence, e.status])).toEqual(
      LIFECYCLE.map((status, i) => [i + 1, status]),
    );

    // Moved on by events other than the reply's: the check on the UPDATE finds it.
    const other = orderOf('charge');
    await record(other);
    const [ack, card, requested, approval] = approvedRun(other, randomUUID());
    await uplink.appendEvents(TERMINAL, [ack], nothingAlongside);
    const rest = await repository.appendEvents(TERMINAL, [card, requested, approval], nothingAlongside);
    expect(rest.refusal).toBeUndefined();
    expect(await stored(other.clientTransactionId)).toMatchObject({ status: 'APPROVAL', eventCount: 4 });
  });

  describe('the row a recent run wrote', () => {
    let clock: number;
    let other: TransactionRepository;

    beforeEach(() => {
      clock = 1_000_000;
      repository = repositoryOf(() => clock);
      // Another API process on the same database: it knows nothing of this one's recent rows.
      other = repositoryOf(() => clock);
    });

    /** Stages one delivery per event stored, as the outbox does (it moves the row's counter). */
    const oneDeliveryEach = () => ({
      each: async (transaction: TransactionEntity) => {
        transaction.deliveryCount += 1;
        return null;
      },
      end: async () => undefined,
    });

    const selects = (statements: string[]) => statements.filter((sql) => sql.startsWith('SELECT'));

    it('is taken by the next run of that transaction instead of reading it, and stores the same', async () => {
      const charge = orderOf('charge');
      const [ack, card, requested, approval] = approvedRun(charge, randomUUID());
      await record(charge);
      await repository.appendEvents(TERMINAL, [ack], oneDeliveryEach);
      clock += RECENT_ROW_MS - 1;
      const statements = await statementsOf(() =>
        repository.appendEvents(TERMINAL, [card, requested, approval], oneDeliveryEach),
      );
      expect(selects(statements)).toEqual([]);
      expect(await stored(charge.clientTransactionId)).toMatchObject({
        status: 'APPROVAL',
        businessState: 'SETTLED',
        eventCount: 4,
        deliveryCount: 4,
      });
    });

    it('is read after all once it is older than its time, or was final, or the run names two transactions', async () => {
      const charge = orderOf('charge');
      const [ack, card, requested, approval] = approvedRun(charge, randomUUID());
      await repository.appendEvents(TERMINAL, [ack], nothingAlongside);
      clock += RECENT_ROW_MS;
      expect(
        selects(await statementsOf(() => repository.appendEvents(TERMINAL, [card], nothingAlongside))),
      ).not.toEqual([]);

      await repository.appendEvents(TERMINAL, [requested, approval], nothingAlongside);
      expect(
        selects(await statementsOf(() => repository.appendEvents(TERMINAL, [approval], nothingAlongside))),
      ).not.toEqual([]);

      const first = orderOf('charge');
      const second = orderOf('charge');
      const [firstAck, firstCard] = approvedRun(first, randomUUID());
      const [secondAck] = approvedRun(second, randomUUID());
      await repository.appendEvents(TERMINAL, [firstAck], nothingAlongside);
      const both = await statementsOf(() =>
        repository.appendEvents(TERMINAL, [firstCard, secondAck], nothingAlongside),
      );
      expect(selects(both)).not.toEqual([]);
      expect(await stored(first.clientTransactionId)).toMatchObject({
        status: 'CARD_PRESENTED',
        eventCount: 2,
      });
    });

    it('that moved on in another process (events, or a delivery) is read, and nothing is lost', async () => {
      const charge = orderOf('charge');
      const [ack, card, requested, approval] = approvedRun(charge, randomUUID());
      await repository.appendEvents(TERMINAL, [ack], oneDeliveryEach);
      await other.appendEvents(TERMINAL, [card, requested], oneDeliveryEach);
      // Does not follow the row this process wrote: the run reads it, and it follows.
      const last = await repository.appendEvents(TERMINAL, [approval], oneDeliveryEach);
      expect(last.refusal).toBeUndefined();
      const charged = await stored(charge.clientTransactionId);
      expect(charged).toMatchObject({ status: 'APPROVAL', eventCount: 4, deliveryCount: 4 });
      expect((await repository.eventsOf(charged?.id ?? '')).map((e) => [e.sequence, e.status])).toEqual(
        LIFECYCLE.map((status, i) => [i + 1, status]),
      );

      // A redelivery elsewhere moves only the delivery counter: the UPDATE's check finds it.
      const next = orderOf('charge');
      const [nextAck, nextCard] = approvedRun(next, randomUUID());
      await repository.appendEvents(TERMINAL, [nextAck], oneDeliveryEach);
      const row = await stored(next.clientTransactionId);
      await database.dataSource.query(
        'UPDATE transactions SET delivery_count = delivery_count + 1 WHERE id = ?',
        [row?.id],
      );
      await repository.appendEvents(TERMINAL, [nextCard], oneDeliveryEach);
      expect(await stored(next.clientTransactionId)).toMatchObject({
        status: 'CARD_PRESENTED',
        eventCount: 2,
        deliveryCount: 3,
      });
    });
  });

  it('a replayed run changes nothing; an event that does not follow stops the run after what it stored', async () => {
    const charge = orderOf('charge');
    const run = approvedRun(charge, randomUUID());
    await repository.appendEvents(TERMINAL, run.slice(0, 2), nothingAlongside);
    const again = await repository.appendEvents(TERMINAL, run, nothingAlongside);
    expect(again.appended.map((a) => a.result)).toEqual(['duplicate', 'duplicate', 'appended', 'appended']);

    const other = orderOf('charge');
    const [ack, , requested] = approvedRun(other, randomUUID());
    const refused = await repository.appendEvents(TERMINAL, [ack, requested], nothingAlongside);
    expect(refused.appended.map((a) => a.result)).toEqual(['appended']);
    expect(refused.refusal?.message).toMatch(/follows CARD_PRESENTED/);
    expect(await stored(other.clientTransactionId)).toMatchObject({
      status: 'TERMINAL_ACKNOWLEDGED',
      eventCount: 1,
    });
  });
});
