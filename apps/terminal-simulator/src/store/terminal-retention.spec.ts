import type { DataSource } from 'typeorm';
import { SerialWriter, portsOf } from '@tps/database';
import { STORES } from '@tps/testing';
import type { LinkEvent, OperationOrder } from '@tps/link';
import { TerminalPrintJobEntity } from '../printer/terminal-print-job.entity';
import { buildEvent } from '../runtime/event-factory';
import { order, profile } from '../runtime/testing/runtime-harness';
import { TerminalEventEntity } from './terminal-event.entity';
import { TerminalRetention } from './terminal-retention';
import { TerminalStore, transactionKey } from './terminal-store';
import { TerminalTransactionEntity } from './terminal-transaction.entity';
import { openTerminalStore } from './testing/terminal-database';

// Nest ships as ES modules, which Jest does not load; the decorators only matter to DI.
jest.mock('@nestjs/common', () => ({
  Injectable: () => () => undefined,
  Logger: class {
    warn(): void {}
  },
}));

const SERIAL = 'SIMUNIT001';
const DAY_MS = 86_400_000;
const OLD = new Date('2026-01-02T03:04:05.678Z');
const RECENT = new Date(OLD.getTime() + 30 * DAY_MS);

describe.each(STORES)(
  'TerminalRetention (real %s, injected clock): the terminals forget what is past RETENTION_DAYS',
  (kind) => {
    let database: { dataSource: DataSource; close(): Promise<void> };
    let dataSource: DataSource;
    let store: TerminalStore;
    let now: number;
    let retention: TerminalRetention;

    beforeEach(async () => {
      database = await openTerminalStore(kind);
      dataSource = database.dataSource;
      const writer = new SerialWriter(dataSource);
      store = new TerminalStore(writer, dataSource);
      const settings = { RETENTION_DAYS: 90, RETENTION_SWEEP_INTERVAL_MS: 60_000, RETENTION_BATCH: 2 };
      retention = new TerminalRetention(
        settings,
        portsOf(dataSource).terminalPurge(writer),
        () => [SERIAL],
        () => now,
      );
    });

    afterEach(() => database.close());

    /** A whole sync charge dated `at`: acknowledgement and approval, as the terminal stores them. */
    async function charged(at: Date): Promise<string> {
      const charge: OperationOrder = order('00', 'sync');
      const ack: LinkEvent = {
        event: buildEvent(profile('instant'), charge, null, 'TERMINAL_ACKNOWLEDGED', {}, at),
        order: charge,
      };
      const approval: LinkEvent = {
        event: buildEvent(profile('instant'), charge, 'TERMINAL_ACKNOWLEDGED', 'APPROVAL', {}, at),
        outcome: { kind: 'terminal', error: { type: 'TERMINAL', code: 'TER-101', message: 'late' } },
      };
      await store.record(SERIAL, charge, [ack, approval]);
      return transactionKey(charge.merchantId, charge.clientTransactionId);
    }

    /** The service acknowledged every event of these transactions. */
    async function acknowledged(...keys: string[]): Promise<void> {
      await dataSource
        .createQueryBuilder()
        .update(TerminalEventEntity)
        .set({ acked: true })
        .where('transaction_key IN (:...keys)', { keys })
        .execute();
    }

    async function printJob(
      id: string,
      status: TerminalPrintJobEntity['status'],
      reported: boolean,
    ): Promise<void> {
      await dataSource.getRepository(TerminalPrintJobEntity).insert({
        printJobId: id,
        serialNumber: SERIAL,
        order: { printJobId: id, commands: [] } as unknown as TerminalPrintJobEntity['order'],
        status,
        errorCode: null,
        errorMessage: null,
        printedText: null,
        version: 3,
        reportedVersion: reported ? 3 : 2,
        updatedAt: OLD.toISOString(),
      });
    }

    const keysStored = async (): Promise<string[]> =>
      (await dataSource.getRepository(TerminalTransactionEntity).find()).map((row) => row.key).sort();
    const eventKeys = async (): Promise<string[]> => [
      ...new Set(
        (await dataSource.getRepository(TerminalEventEntity).find()).map((row) => row.transactionKey),
      ),
    ];
    const jobsStored = async (): Promise<string[]> =>
      (await dataSource.getRepository(TerminalPrintJobEntity).find()).map((row) => row.printJobId).sort();

    it('purges, in batches, transactions and finished print jobs dated before the limit; keeps what the service has not heard', async () => {
      const old = [await charged(OLD), await charged(OLD), await charged(OLD)];
      const queued = await charged(OLD);
      const recent = await charged(RECENT);
      await acknowledged(...old, recent);
      await printJob('job-done', 'COMPLETED', true);
      await printJob('job-unreported', 'FAILED', false);
      await printJob('job-pending', 'PENDING', true);

      // A day short of the limit: nothing goes.
      now = OLD.getTime() + 89 * DAY_MS;
      expect(await retention.sweep()).toBe(0);
      expect(await keysStored()).toEqual([...old, queued, recent].sort());

      // Past it: the three old transactions (two writes of 2), with their events, and the finished job.
      now = OLD.getTime() + 91 * DAY_MS;
      expect(await retention.sweep()).toBe(3);
      expect(await keysStored()).toEqual([queued, recent].sort());
      expect((await eventKeys()).sort()).toEqual([queued, recent].sort());
      expect(await jobsStored()).toEqual(['job-pending', 'job-unreported']);

      // Once the uplink has delivered its events, the queued one goes too; the recent one waits its turn.
      await acknowledged(queued);
      expect(await retention.sweep()).toBe(1);
      expect(await keysStored()).toEqual([recent]);
      now = RECENT.getTime() + 91 * DAY_MS;
      await retention.sweep();
      expect(await keysStored()).toEqual([]);
      expect(await eventKeys()).toEqual([]);
    });
  },
);
