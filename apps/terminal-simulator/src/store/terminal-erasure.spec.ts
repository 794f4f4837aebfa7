import type { DataSource } from 'typeorm';
import { EntityTable, SerialWriter, sqlOf } from '@tps/database';
import type { TransactionEvent } from '@tps/contracts';
import type { PrintOrder } from '@tps/link';
import { STORES } from '@tps/testing';
import { TerminalPrintJobEntity } from '../printer/terminal-print-job.entity';
import { order } from '../runtime/testing/runtime-harness';
import { TerminalErasure } from './terminal-erasure';
import { TerminalEventEntity } from './terminal-event.entity';
import { TerminalTransactionEntity } from './terminal-transaction.entity';
import { openTerminalStore } from './testing/terminal-database';

// Nest ships as ES modules, which Jest does not load; the decorators only matter to DI.
jest.mock('@nestjs/common', () => ({ Injectable: () => () => undefined }));

describe.each(STORES)('TerminalErasure on a real %s store', (kind) => {
  let database: { dataSource: DataSource; close(): Promise<void> };

  beforeAll(async () => {
    database = await openTerminalStore(kind);
  });

  afterAll(() => database.close());

  it("erases the terminals' transactions, queued events and print jobs, and no other terminal's", async () => {
    const { dataSource } = database;
    const transactions = new EntityTable(dataSource, TerminalTransactionEntity);
    const events = new EntityTable(dataSource, TerminalEventEntity);
    const jobs = new EntityTable(dataSource, TerminalPrintJobEntity);
    const sql = sqlOf(dataSource.manager);
    for (const serialNumber of ['SIMA', 'SIMB', 'SIMC']) {
      const key = `m:${serialNumber}`;
      await transactions.insert(sql, {
        key,
        serialNumber,
        order: order('00', 'sync'),
        status: 'APPROVAL',
        outcome: null,
        createdAt: '2026-01-01T00:00:00.000Z',
      });
      await events.insert(sql, {
        serialNumber,
        transactionKey: key,
        eventId: `e-${serialNumber}`,
        envelope: { event_id: `e-${serialNumber}` } as TransactionEvent,
        outcome: null,
        acked: false,
      });
      await jobs.insert(sql, {
        printJobId: `p-${serialNumber}`,
        serialNumber,
        order: { printJobId: `p-${serialNumber}` } as PrintOrder,
        status: 'PENDING',
        version: 1,
        reportedVersion: 0,
        updatedAt: '2026-01-01T00:00:00.000Z',
      });
    }

    await new TerminalErasure(new SerialWriter(dataSource), dataSource).erase(['SIMA', 'SIMC']);

    const serialsOf = async (table: EntityTable<{ serialNumber: string }>) =>
      (await table.find(sql, {})).map((row) => row.serialNumber);
    expect(await serialsOf(transactions)).toEqual(['SIMB']);
    expect(await serialsOf(events)).toEqual(['SIMB']);
    expect(await serialsOf(jobs)).toEqual(['SIMB']);
  });
});
