import { SerialWriter } from '@tps/database';
import type { PrintOrder } from '@tps/link';
import { openTerminalDatabase, type TerminalDatabase } from '../store/testing/terminal-database';
import { PrintStore } from './print-store';
import { TerminalPrintJobEntity } from './terminal-print-job.entity';

// Nest ships as ES modules, which Jest does not load; the store's decorators only matter to DI.
jest.mock('@nestjs/common', () => ({ Injectable: () => () => undefined }));
jest.mock('@nestjs/typeorm', () => ({ InjectRepository: () => () => undefined }));

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

describe('PrintStore on a real SQLite file', () => {
  let database: TerminalDatabase;
  let store: PrintStore;

  beforeEach(async () => {
    database = await openTerminalDatabase();
    const { dataSource } = database;
    store = new PrintStore(new SerialWriter(dataSource), dataSource.getRepository(TerminalPrintJobEntity));
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
});
