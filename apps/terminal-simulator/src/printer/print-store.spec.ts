import type { DataSource } from 'typeorm';
import { SerialWriter } from '@tps/database';
import type { PrintOrder } from '@tps/link';
import { STORES } from '@tps/testing';
import { openTerminalStore } from '../store/testing/terminal-database';
import { PrintStore } from './print-store';
import { TerminalPrintJobEntity } from './terminal-print-job.entity';

// Nest ships as ES modules, which Jest does not load; the store's decorators only matter to DI.
jest.mock('@nestjs/common', () => ({ Injectable: () => () => undefined }));

const SERIAL = 'SIMUNIT001';

function printOrder(n: number): PrintOrder {
  return {
    printJobId: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    merchantId: 'merchant',
    commands: [{ type: 'text', value: `#${n}` }],
    webhookUrl: '',
    externalReference: '',
    clockOffsetMs: 0,
  };
}

describe.each(STORES)('PrintStore on a real %s store', (kind) => {
  let database: { dataSource: DataSource; close(): Promise<void> };
  let store: PrintStore;

  beforeEach(async () => {
    database = await openTerminalStore(kind);
    const { dataSource } = database;
    store = new PrintStore(new SerialWriter(dataSource), dataSource);
  });

  afterEach(() => database.close());

  it('never shows the printer a change half made: a version is reported with its own status', async () => {
    // The printer reports what `unreported` shows, and marks that version reported. A read that
    // saw the new version with the old status told the service a stale status for good (the
    // print-callback e2e flake: a job COMPLETED on the terminal, IN_PROGRESS in the service).
    const seen: TerminalPrintJobEntity[] = [];
    let updating = true;
    const reader = (async () => {
      while (updating) seen.push(...(await store.unreported(SERIAL, 50)));
    })();
    for (let n = 0; n < 40; n++) {
      const job = await store.enqueue(SERIAL, printOrder(n), '2026-01-01T00:00:00.000Z');
      const started = await store.update(job, {
        status: 'IN_PROGRESS',
        updatedAt: '2026-01-01T00:00:01.000Z',
      });
      await store.update(started, {
        status: 'COMPLETED',
        printedText: `#${n}`,
        updatedAt: '2026-01-01T00:00:02.000Z',
      });
    }
    updating = false;
    await reader;

    const statusOfVersion: Record<number, string> = { 1: 'PENDING', 2: 'IN_PROGRESS', 3: 'COMPLETED' };
    expect(seen.length).toBeGreaterThan(0);
    const torn = seen.filter((job) => statusOfVersion[job.version] !== job.status);
    expect(torn.map(({ printJobId, version, status }) => ({ printJobId, version, status }))).toEqual([]);
  });

  it('counts each change once and keeps what was reported', async () => {
    const job = await store.enqueue(SERIAL, printOrder(1), '2026-01-01T00:00:00.000Z');
    const started = await store.update(job, { status: 'IN_PROGRESS', updatedAt: '2026-01-01T00:00:01.000Z' });
    expect(started).toMatchObject({ status: 'IN_PROGRESS', version: 2, reportedVersion: 0 });
    await store.markReported(started);
    expect(await store.unreported(SERIAL, 50)).toEqual([]);
    const done = await store.update(started, {
      status: 'FAILED',
      errorCode: 'PAPER_OUT',
      errorMessage: 'the printer is out of paper',
      updatedAt: '2026-01-01T00:00:02.000Z',
    });
    expect(done).toMatchObject({ status: 'FAILED', version: 3, reportedVersion: 2, errorCode: 'PAPER_OUT' });
    expect((await store.unreported(SERIAL, 50)).map((row) => row.version)).toEqual([3]);
  });

  it("takes a job once, and gives the printer its terminal's oldest job not finished", async () => {
    const first = await store.enqueue(SERIAL, printOrder(1), '2026-01-01T00:00:00.000Z');
    expect(first).toMatchObject({
      printJobId: printOrder(1).printJobId,
      serialNumber: SERIAL,
      order: printOrder(1),
      status: 'PENDING',
      errorCode: null,
      errorMessage: null,
      printedText: null,
      version: 1,
      reportedVersion: 0,
      updatedAt: '2026-01-01T00:00:00.000Z',
    });
    // Asked again: the job as it was taken.
    expect(await store.enqueue(SERIAL, printOrder(1), '2026-01-01T00:09:00.000Z')).toEqual(first);
    await store.enqueue('SIMUNIT002', printOrder(2), '2026-01-01T00:00:00.000Z');
    const third = await store.enqueue(SERIAL, printOrder(3), '2026-01-01T00:00:00.000Z');

    expect(await store.nextToPrint(SERIAL)).toEqual(first);
    await store.update(first, { status: 'COMPLETED', updatedAt: '2026-01-01T00:00:01.000Z' });
    expect(await store.nextToPrint(SERIAL)).toEqual(third);
    const started = await store.update(third, {
      status: 'IN_PROGRESS',
      updatedAt: '2026-01-01T00:00:02.000Z',
    });
    expect(await store.nextToPrint(SERIAL)).toEqual(started);
    await store.update(started, { status: 'FAILED', updatedAt: '2026-01-01T00:00:03.000Z' });
    expect(await store.nextToPrint(SERIAL)).toBeNull();

    // Unreported: this terminal's jobs only, oldest first, at most the limit.
    expect((await store.unreported(SERIAL, 50)).map((job) => [job.printJobId, job.version])).toEqual([
      [first.printJobId, 2],
      [third.printJobId, 3],
    ]);
    expect((await store.unreported(SERIAL, 1)).map((job) => job.printJobId)).toEqual([first.printJobId]);
    // An older version acknowledged late takes nothing back.
    await store.markReported({ ...started, version: 3 });
    await store.markReported(started);
    expect((await store.unreported(SERIAL, 50)).map((job) => job.printJobId)).toEqual([first.printJobId]);
  });
});
