import { randomBytes, randomUUID } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import type { AuthorizationResponse, TransactionEvent } from '@tps/contracts';
import { SerialWriter } from '@tps/database';
import type { StatementLog } from '@tps/database/testing';
import type { LifecycleStatus } from '@tps/domain';
import type { LinkEvent, OperationOrder } from '@tps/link';
import { openApiPostgres, type ApiPostgres } from '../testing/api-database';
import { TransactionEntity } from './transaction.entity';
import { transactionFromOrder } from './transaction-from-order';
import { TransactionRepository } from './transaction.repository';
import { RecentTransactions } from './recent-transactions';

// Nest ships as ES modules, which Jest does not load; the decorators only matter to DI.
jest.mock('@nestjs/common', () => ({ Injectable: () => () => undefined }));

const MERCHANT = 'demo-merchant';
const TERMINAL = { serialNumber: 'SIM0000001', merchantId: MERCHANT };
const LIFECYCLE: LifecycleStatus[] = [
  'TERMINAL_ACKNOWLEDGED',
  'CARD_PRESENTED',
  'APPROVAL_REQUESTED',
  'APPROVAL',
];

function syncCharge(): OperationOrder {
  return {
    type: 'charge',
    mode: 'sync',
    form: 'cloud',
    merchantId: MERCHANT,
    clientTransactionId: randomUUID(),
    amount: {
      iva: 1600,
      subtotalIva: 10000,
      subtotalIva0: 0,
      extraTaxes: { airportTax: 0, iac: 0, ice: 0, travelAgency: 0 },
    },
    metadata: {},
    eventsWebhookUrl: '',
    clockOffsetMs: 0,
  };
}

/** A terminal's whole approved run of one order, as its reply carries it. */
function approvedRun(order: OperationOrder): LinkEvent[] {
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
        rawResponse: { transaction_reference: randomUUID(), card_type: 'CREDIT' },
        timestamp: Date.now(),
      } as unknown as AuthorizationResponse;
      link.outcome = { kind: 'acquirer', response };
    }
    return link;
  });
}

describe('TransactionRepository on PostgreSQL', () => {
  let database: ApiPostgres;
  let dataSource: DataSource;
  let repository: TransactionRepository;
  let log: StatementLog;

  beforeAll(async () => {
    database = await openApiPostgres(4);
    ({ dataSource, log } = database);
    // A clock that stands still: a row this process wrote stays recent however slow the machine.
    repository = new TransactionRepository(
      new SerialWriter(dataSource),
      dataSource,
      new RecentTransactions(() => 0),
    );
  });

  afterAll(() => database.close());

  const nothingAlongside = () => ({ each: async () => null, end: async () => undefined });
  const storesNothing = () => true;

  async function statementsOf(work: () => Promise<unknown>): Promise<string[]> {
    log.clear();
    await work();
    return log.firstWords;
  }

  /** Records an order as the use case does before it hands it to the terminal: no event yet. */
  async function record(order: OperationOrder): Promise<TransactionEntity> {
    const row = transactionFromOrder(order, TERMINAL.serialNumber, {
      fingerprint: 'f',
      targetReference: null,
      createdAt: new Date(),
    });
    const recorded = await repository.insertNew(row);
    if (recorded === null) throw new Error('not recorded');
    return recorded;
  }

  async function sequences(order: OperationOrder): Promise<Array<[number, string]>> {
    const stored = await repository.findByClientId(MERCHANT, order.clientTransactionId);
    return (await repository.eventsOf(stored?.id ?? '')).map((e) => [e.sequence, e.status]);
  }

  it("a sync charge's record and its reply's run are one statement each, with no BEGIN or COMMIT", async () => {
    const charge = syncCharge();
    expect(await statementsOf(() => record(charge))).toEqual(['INSERT']);
    const run = approvedRun(charge);
    expect(
      await statementsOf(() => repository.appendEvents(TERMINAL, run, nothingAlongside, storesNothing)),
    ).toEqual(['WITH']);
    expect(await repository.findByClientId(MERCHANT, charge.clientTransactionId)).toMatchObject({
      status: 'APPROVAL',
      businessState: 'SETTLED',
      eventCount: 4,
    });
    expect(await sequences(charge)).toEqual(LIFECYCLE.map((status, i) => [i + 1, status]));
  });

  it('a reply whose row moved on meanwhile stores nothing in its statement, and is written again from what is stored', async () => {
    const charge = syncCharge();
    const recorded = await record(charge);
    // A delivery counted by another process: only the counter moved.
    await dataSource.query('UPDATE transactions SET delivery_count = delivery_count + 1 WHERE id = $1', [
      recorded.id,
    ]);
    const reply = await repository.appendEvents(
      TERMINAL,
      approvedRun(charge),
      nothingAlongside,
      storesNothing,
    );
    expect(reply.refusal).toBeUndefined();
    expect(reply.appended.map((a) => a.result)).toEqual(Array(4).fill('appended'));
    expect(await repository.findByClientId(MERCHANT, charge.clientTransactionId)).toMatchObject({
      status: 'APPROVAL',
      eventCount: 4,
      deliveryCount: 1,
    });
    expect(await sequences(charge)).toEqual(LIFECYCLE.map((status, i) => [i + 1, status]));
  });

  it('a reply whose outbox positions another write took meanwhile is written again from what is stored', async () => {
    await dataSource.query(
      'CREATE TABLE IF NOT EXISTS outbox_positions (transaction_id text, position integer, UNIQUE (transaction_id, position))',
    );
    const charge = syncCharge();
    const recorded = await record(charge);
    // Another lane's run of the same transaction stored a delivery: it took position 1.
    await dataSource.query('INSERT INTO outbox_positions VALUES ($1, 1)', [recorded.id]);
    await dataSource.query('UPDATE transactions SET delivery_count = 1 WHERE id = $1', [recorded.id]);
    // Each event gets a delivery at the row's next position, inserted as the outbox does at the end.
    const positionsAlongside = (manager: EntityManager) => {
      const rows: Array<[string, number]> = [];
      return {
        each: async (transaction: TransactionEntity) => {
          transaction.deliveryCount += 1;
          rows.push([transaction.id, transaction.deliveryCount]);
          return null;
        },
        end: async () => {
          for (const row of rows) await manager.query('INSERT INTO outbox_positions VALUES ($1, $2)', row);
        },
      };
    };
    const reply = await repository.appendEvents(TERMINAL, approvedRun(charge), positionsAlongside);
    expect(reply.refusal).toBeUndefined();
    expect(await repository.findByClientId(MERCHANT, charge.clientTransactionId)).toMatchObject({
      status: 'APPROVAL',
      deliveryCount: 5,
    });
    const positions = await dataSource.query<Array<{ position: number }>>(
      'SELECT position FROM outbox_positions WHERE transaction_id = $1 ORDER BY position',
      [recorded.id],
    );
    expect(positions.map((row) => row.position)).toEqual([1, 2, 3, 4, 5]);
  });

  it('an answered charge stays whole in its row, and its writes keep up only the indexes a query reads', async () => {
    const charge = syncCharge();
    const recorded = await record(charge);
    // An acquirer's answer of a real one's size and kind (the simulator's is about 1 kB): hex data
    // that does not compress, which puts the answered row above PostgreSQL's 2 kB default.
    const run = approvedRun(charge).map((link) =>
      link.outcome?.kind === 'acquirer'
        ? {
            ...link,
            outcome: {
              ...link.outcome,
              response: {
                ...link.outcome.response,
                issuerAuthenticationData: randomBytes(600).toString('hex'),
              },
            },
          }
        : link,
    );
    const reply = await repository.appendEvents(TERMINAL, run, nothingAlongside, storesNothing);
    expect(reply.refusal).toBeUndefined();
    const [row] = await dataSource.query<Array<{ size: number }>>(
      'SELECT pg_column_size(t.*) AS size FROM transactions t WHERE id = $1',
      [recorded.id],
    );
    expect(row.size).toBeGreaterThan(2048);
    const [toast] = await dataSource.query<Array<{ bytes: string }>>(
      "SELECT pg_relation_size(reltoastrelid) AS bytes FROM pg_class WHERE relname = 'transactions'",
    );
    expect(Number(toast.bytes)).toBe(0);
    const indexes = await dataSource.query<Array<{ columns: string }>>(
      "SELECT substring(indexdef from '\\((.*)\\)$') AS columns FROM pg_indexes WHERE tablename = 'transactions'",
    );
    expect(indexes.map((index) => index.columns).sort()).toEqual([
      'id',
      'merchant_id, client_transaction_id',
      'merchant_id, created_at_ms',
      'target_reference',
      'transaction_reference',
    ]);
  });

  it('a reply that may store deliveries alongside its events is a transaction', async () => {
    const charge = syncCharge();
    await record(charge);
    const statements = await statementsOf(() =>
      repository.appendEvents(TERMINAL, approvedRun(charge), nothingAlongside),
    );
    expect(statements).toEqual(['BEGIN', 'WITH', 'COMMIT']);
  });
});
