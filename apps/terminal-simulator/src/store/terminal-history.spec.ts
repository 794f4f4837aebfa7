import type { DataSource } from 'typeorm';
import { EntityTable, sqlOf } from '@tps/database';
import type { LifecycleStatus } from '@tps/domain';
import { STORES } from '@tps/testing';
import type { TransactionEvent } from '@tps/contracts';
import { order } from '../runtime/testing/runtime-harness';
import { TerminalEventEntity } from './terminal-event.entity';
import { TerminalHistory } from './terminal-history';
import { TerminalTransactionEntity } from './terminal-transaction.entity';
import { openTerminalStore } from './testing/terminal-database';

// Nest ships as ES modules, which Jest does not load; the decorators only matter to DI.
jest.mock('@nestjs/common', () => ({ Injectable: () => () => undefined }));

const SERIAL = 'SIMUNIT001';

describe.each(STORES)('TerminalHistory on a real %s store', (kind) => {
  let database: { dataSource: DataSource; close(): Promise<void> };
  let history: TerminalHistory;

  beforeAll(async () => {
    database = await openTerminalStore(kind);
    const { dataSource } = database;
    history = new TerminalHistory(dataSource);
    const transactions = new EntityTable(dataSource, TerminalTransactionEntity);
    const events = new EntityTable(dataSource, TerminalEventEntity);
    const sql = sqlOf(dataSource.manager);
    const stored = (key: string, createdAt: string, status: LifecycleStatus, serialNumber = SERIAL) =>
      transactions.insert(sql, {
        key,
        serialNumber,
        order: order('00', 'sync'),
        status,
        outcome: null,
        createdAt,
      });
    await stored('m1:a', '2026-01-01T10:00:00.000Z', 'APPROVAL');
    await stored('m1:b', '2026-01-01T11:00:00.000Z', 'DECLINED');
    await stored('m1:c', '2026-01-01T11:00:00.000Z', 'APPROVAL');
    await stored('m1:d', '2026-01-01T12:00:00.000Z', 'APPROVAL');
    // Another merchant whose id starts like m1's, and m1 on another terminal: never shown.
    await stored('m1x:e', '2026-01-01T11:30:00.000Z', 'APPROVAL');
    await stored('m1:f', '2026-01-01T11:30:00.000Z', 'APPROVAL', 'SIMUNIT002');
    const event = (transactionKey: string, eventId: string) => ({
      serialNumber: SERIAL,
      transactionKey,
      eventId,
      envelope: { event_id: eventId } as TransactionEvent,
      outcome: null,
      acked: false,
    });
    await events.insert(sql, [
      event('m1:b', 'e1'),
      event('m1:a', 'e2'),
      event('m1:b', 'e3'),
      event('m1:d', 'e4'),
    ]);
  });

  afterAll(() => database.close());

  const keysOf = async (query: Partial<Parameters<TerminalHistory['page']>[0]>) =>
    (await history.page({ serialNumber: SERIAL, merchantId: 'm1', take: 50, ...query })).map((t) => t.key);

  it("pages the terminal's transactions of the merchant, newest first, the key breaking ties", async () => {
    expect(await keysOf({})).toEqual(['m1:d', 'm1:c', 'm1:b', 'm1:a']);
    expect(await keysOf({ take: 2 })).toEqual(['m1:d', 'm1:c']);
    expect(await keysOf({ after: { at: '2026-01-01T11:00:00.000Z', key: 'm1:c' } })).toEqual([
      'm1:b',
      'm1:a',
    ]);
    expect(await keysOf({ merchantId: 'm1x' })).toEqual(['m1x:e']);
    const [newest] = await history.page({ serialNumber: SERIAL, merchantId: 'm1', take: 1 });
    expect(newest).toBeInstanceOf(TerminalTransactionEntity);
    expect(newest).toMatchObject({ key: 'm1:d', serialNumber: SERIAL, status: 'APPROVAL', outcome: null });
    expect(newest.order).toMatchObject({ type: 'charge', mode: 'sync' });
  });

  it('narrows a page by key, status and an inclusive time range', async () => {
    expect(await keysOf({ key: 'm1:b' })).toEqual(['m1:b']);
    expect(await keysOf({ key: 'm1x:e' })).toEqual([]);
    expect(await keysOf({ status: 'APPROVAL' })).toEqual(['m1:d', 'm1:c', 'm1:a']);
    expect(await keysOf({ from: '2026-01-01T11:00:00.000Z', to: '2026-01-01T12:00:00.000Z' })).toEqual([
      'm1:d',
      'm1:c',
      'm1:b',
    ]);
    expect(await keysOf({ to: '2026-01-01T10:59:59.999Z' })).toEqual(['m1:a']);
  });

  it("reads the transactions' events, each transaction's in emission order", async () => {
    const events = await history.eventsOf(['m1:a', 'm1:b', 'm1:c']);
    expect([...events].map(([key, rows]) => [key, rows.map((row) => row.eventId)])).toEqual([
      ['m1:a', ['e2']],
      ['m1:b', ['e1', 'e3']],
      ['m1:c', []],
    ]);
    expect(events.get('m1:b')?.[0]).toMatchObject({
      envelope: { event_id: 'e1' },
      acked: false,
      outcome: null,
    });
    expect(await history.eventsOf([])).toEqual(new Map());
  });
});
