import { randomUUID } from 'node:crypto';
import type { AuthorizationResponse, TransactionEvent } from '@tps/contracts';
import { SerialWriter } from '@tps/database';
import type { LifecycleStatus, OperationType } from '@tps/domain';
import type { LinkEvent, OperationOrder } from '@tps/link';
import { openApiDatabase, type ApiDatabase } from '../testing/api-database';
import { TransactionEventEntity } from './transaction-event.entity';
import { TransactionEntity } from './transaction.entity';
import { TransactionRepository } from './transaction.repository';

// Nest ships as ES modules, which Jest does not load; the decorators only matter to DI.
jest.mock('@nestjs/common', () => ({ Injectable: () => () => undefined }));
jest.mock('@nestjs/typeorm', () => ({ InjectRepository: () => () => undefined }));

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

  beforeEach(async () => {
    database = await openApiDatabase();
    const { dataSource } = database;
    repository = new TransactionRepository(
      new SerialWriter(dataSource),
      dataSource.getRepository(TransactionEntity),
      dataSource.getRepository(TransactionEventEntity),
    );
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
