import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { SerialWriter, TERMINAL_MIGRATIONS, dataSourceOptions, closeDataSource } from '@tps/database';
import { TestStore } from '@tps/testing';
import type { LifecycleStatus } from '@tps/domain';
import type { LinkEvent, OperationOrder } from '@tps/link';
import { TerminalPrintJobEntity } from '../printer/terminal-print-job.entity';
import { buildEvent } from '../runtime/event-factory';
import { TransactionAlreadyStoredError } from '../runtime/runtime-store';
import { order, profile } from '../runtime/testing/runtime-harness';
import { TerminalEventEntity } from './terminal-event.entity';
import { TerminalStore, transactionKey } from './terminal-store';
import { TerminalTransactionEntity } from './terminal-transaction.entity';
import { StatementLog } from '@tps/database/testing';

// Nest ships as ES modules, which Jest does not load; the store's decorators only matter to DI.
jest.mock('@nestjs/common', () => ({ Injectable: () => () => undefined }));

const SERIAL = 'SIMUNIT001';

function linkOf(
  charge: OperationOrder,
  status: LifecycleStatus,
  previous: LifecycleStatus | null = null,
): LinkEvent {
  const link: LinkEvent = {
    event: buildEvent(profile('instant'), charge, previous, status, {}, new Date('2026-01-02T03:04:05.678Z')),
  };
  if (status === 'TERMINAL_ACKNOWLEDGED') link.order = charge;
  if (status === 'APPROVAL') {
    link.outcome = { kind: 'terminal', error: { type: 'TERMINAL', code: 'TER-101', message: 'late' } };
  }
  return link;
}

describe('TerminalStore on PostgreSQL', () => {
  let dir: string;
  let testStore: TestStore;
  let dataSource: DataSource;
  let store: TerminalStore;
  let log: StatementLog;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tps-terminal-pg-'));
    testStore = new TestStore('postgres', dir);
    log = new StatementLog();
    dataSource = new DataSource({
      ...dataSourceOptions({
        url: await testStore.url('terminal'),
        entities: [TerminalTransactionEntity, TerminalEventEntity, TerminalPrintJobEntity],
        migrations: TERMINAL_MIGRATIONS,
        poolSize: 4,
      }),
      logging: ['query'],
      logger: log,
    });
    await dataSource.initialize();
    store = new TerminalStore(new SerialWriter(dataSource), dataSource);
  });

  afterAll(async () => {
    await closeDataSource(dataSource);
    await testStore.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  async function statementsOf(work: () => Promise<unknown>): Promise<string[]> {
    log.clear();
    await work();
    return log.firstWords;
  }

  const eventsOf = async (charge: OperationOrder) =>
    (await store.linkEvents(transactionKey(charge.merchantId, charge.clientTransactionId))).map(
      (link) => link.event.status,
    );

  it('stores a run alone in one statement, with no BEGIN or COMMIT around it', async () => {
    const charge = order('00', 'sync');
    const acknowledgement = linkOf(charge, 'TERMINAL_ACKNOWLEDGED');
    const card = linkOf(charge, 'CARD_PRESENTED', 'TERMINAL_ACKNOWLEDGED');
    expect(await statementsOf(() => store.record(SERIAL, charge, [acknowledgement, card]))).toEqual(['WITH']);
    const final = linkOf(charge, 'APPROVAL', 'CARD_PRESENTED');
    expect(await statementsOf(() => store.record(SERIAL, charge, [final]))).toEqual(['WITH']);

    const key = transactionKey(charge.merchantId, charge.clientTransactionId);
    expect(await store.findTransaction(key)).toMatchObject({
      serialNumber: SERIAL,
      order: charge,
      status: 'APPROVAL',
      outcome: final.outcome,
    });
    expect(await store.linkEvents(key)).toEqual([acknowledgement, card, final]);
  });

  it('refuses an acknowledgement whose transaction is stored, and stores nothing of its run', async () => {
    const charge = order('00', 'sync');
    await store.record(SERIAL, charge, [linkOf(charge, 'TERMINAL_ACKNOWLEDGED')]);
    const again = { ...charge, mode: 'async' as const };
    const refused = store.record(SERIAL, again, [
      linkOf(again, 'TERMINAL_ACKNOWLEDGED'),
      linkOf(again, 'CARD_PRESENTED', 'TERMINAL_ACKNOWLEDGED'),
    ]);
    await expect(refused).rejects.toBeInstanceOf(TransactionAlreadyStoredError);
    expect(await eventsOf(charge)).toEqual(['TERMINAL_ACKNOWLEDGED']);
    const key = transactionKey(charge.merchantId, charge.clientTransactionId);
    expect((await store.findTransaction(key))?.order.mode).toBe('sync');
  });

  it('writes queued together each commit alone (no BEGIN or COMMIT), and a refusal does not take the others down', async () => {
    const charge = order('00', 'sync');
    await store.record(SERIAL, charge, [linkOf(charge, 'TERMINAL_ACKNOWLEDGED')]);
    const first = order('00', 'sync');
    const other = order('00', 'sync');
    log.clear();
    // The first runs alone (the queue is idle); the two queued behind it run each as its own transaction.
    const [, refused, kept] = await Promise.allSettled([
      store.record(SERIAL, first, [linkOf(first, 'TERMINAL_ACKNOWLEDGED')]),
      store.record(SERIAL, charge, [linkOf(charge, 'TERMINAL_ACKNOWLEDGED')]),
      store.record(SERIAL, other, [linkOf(other, 'TERMINAL_ACKNOWLEDGED')]),
    ]);
    expect(log.firstWords).toEqual(['WITH', 'WITH', 'WITH']);
    expect(refused).toMatchObject({ status: 'rejected', reason: expect.any(TransactionAlreadyStoredError) });
    expect(kept.status).toBe('fulfilled');
    expect(await eventsOf(charge)).toEqual(['TERMINAL_ACKNOWLEDGED']);
    expect(await eventsOf(first)).toEqual(['TERMINAL_ACKNOWLEDGED']);
    expect(await eventsOf(other)).toEqual(['TERMINAL_ACKNOWLEDGED']);
  });

  it('counts the queue as a number, and finds the transactions a crash left running', async () => {
    const before = await store.queuedCount();
    expect(typeof before).toBe('number');
    const charge = order('00', 'sync');
    await store.record('SIMPG0002', charge, [linkOf(charge, 'TERMINAL_ACKNOWLEDGED')]);
    expect(await store.queuedCount()).toBe(before + 1);
    expect((await store.unfinished('SIMPG0002')).map((t) => [t.order, t.status])).toEqual([
      [charge, 'TERMINAL_ACKNOWLEDGED'],
    ]);
  });
});
