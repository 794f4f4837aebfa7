import { ContractError } from '@tps/domain';
import { LinkUnavailableError, type PrintOrder, type TerminalProfile, type UplinkRequest } from '@tps/link';
import type { PrintJobChanges } from './print-store';
import { queuedPrintJob } from './queued-print-job';
import type { TerminalPrintJobEntity } from './terminal-print-job.entity';
import { ManualTimers } from '../runtime/testing/manual-timers';
import { TerminalPrinter, type PrintQueueStore, type PrinterUplink } from './terminal-printer';

/** The store in memory; every change is logged, to see the order the printer made them in. */
class MemoryStore implements PrintQueueStore {
  readonly rows: TerminalPrintJobEntity[] = [];
  readonly log: string[] = [];

  enqueue(serialNumber: string, order: PrintOrder, at: string): Promise<TerminalPrintJobEntity> {
    const known = this.rows.find((r) => r.printJobId === order.printJobId);
    if (known) return Promise.resolve({ ...known });
    const row: TerminalPrintJobEntity = {
      seq: this.rows.length + 1,
      ...queuedPrintJob(serialNumber, order, at),
    };
    this.rows.push(row);
    return Promise.resolve({ ...row });
  }

  nextToPrint(): Promise<TerminalPrintJobEntity | null> {
    const next = this.rows.find((r) => r.status === 'PENDING' || r.status === 'IN_PROGRESS');
    return Promise.resolve(next ? { ...next } : null);
  }

  update(job: TerminalPrintJobEntity, changes: PrintJobChanges): Promise<TerminalPrintJobEntity> {
    const row = this.rows.find((r) => r.seq === job.seq) as TerminalPrintJobEntity;
    Object.assign(row, changes, { version: row.version + 1 });
    if (changes.status) this.log.push(`${row.printJobId} ${changes.status}`);
    return Promise.resolve({ ...row });
  }

  unreported(): Promise<TerminalPrintJobEntity[]> {
    return Promise.resolve(this.rows.filter((r) => r.version > r.reportedVersion).map((r) => ({ ...r })));
  }

  markReported(job: TerminalPrintJobEntity): Promise<void> {
    const row = this.rows.find((r) => r.seq === job.seq) as TerminalPrintJobEntity;
    row.reportedVersion = Math.max(row.reportedVersion, job.version);
    return Promise.resolve();
  }
}

class FakeUplink implements PrinterUplink {
  isUp = true;
  readonly sent: UplinkRequest[] = [];
  refuse: Error | undefined;

  request(body: UplinkRequest): Promise<unknown> {
    if (this.refuse) return Promise.reject(this.refuse);
    this.sent.push(body);
    return Promise.resolve({});
  }
}

/** Lets the printer's background work run to its end; no timer is involved at pace instant. */
async function idle(): Promise<void> {
  for (let i = 0; i < 100; i++) await new Promise((resolve) => setImmediate(resolve));
}

function order(id: string, webhookUrl = ''): PrintOrder {
  return {
    printJobId: id,
    merchantId: 'm',
    commands: [{ type: 'text', value: `job ${id}` }],
    webhookUrl,
    externalReference: '',
    clockOffsetMs: 0,
  };
}

function setUp(printer: TerminalProfile['printer'] = 'ok') {
  const store = new MemoryStore();
  const uplink = new FakeUplink();
  const profile = { serialNumber: 'SIM1', pace: 'instant', printer } as TerminalProfile;
  const timers = new ManualTimers();
  const printerUnderTest = new TerminalPrinter(
    'SIM1',
    () => profile,
    store,
    uplink,
    () => undefined,
    timers,
  );
  return { store, uplink, profile, timers, printer: printerUnderTest };
}

describe('TerminalPrinter', () => {
  it('prints one job at a time, in the order taken', async () => {
    const { store, printer } = setUp();
    await Promise.all(['a', 'b', 'c'].map((id) => printer.enqueue(order(id))));
    await idle();
    expect(store.log).toEqual([
      'a IN_PROGRESS',
      'a COMPLETED',
      'b IN_PROGRESS',
      'b COMPLETED',
      'c IN_PROGRESS',
      'c COMPLETED',
    ]);
    expect(store.rows.map((r) => r.printedText)).toEqual(['job a', 'job b', 'job c']);
  });

  it('fails with COVER_OPEN while the cover is open, and reports the error up the uplink', async () => {
    const { store, printer, uplink } = setUp('cover_open');
    await printer.enqueue(order('a', 'http://127.0.0.1:1/hook'));
    await idle();
    expect(store.rows[0]).toMatchObject({ status: 'FAILED', errorCode: 'COVER_OPEN', printedText: null });
    // The service sends the webhook once it has stored this report: the terminal only reports.
    expect(uplink.sent.at(-1)).toEqual({
      type: 'print',
      report: {
        printJobId: 'a',
        status: 'FAILED',
        updatedAt: expect.any(String),
        errorCode: 'COVER_OPEN',
        errorMessage: 'the printer cover is open',
      },
    });
  });

  it('keeps changes while the uplink is down and reports the latest state once it is up', async () => {
    const { store, printer, uplink } = setUp();
    uplink.isUp = false;
    await printer.enqueue(order('a'));
    await idle();
    expect(uplink.sent).toEqual([]);

    uplink.isUp = true;
    printer.report();
    await idle();
    expect(uplink.sent).toEqual([
      {
        type: 'print',
        report: expect.objectContaining({ printJobId: 'a', status: 'COMPLETED', printedText: 'job a' }),
      },
    ]);
    expect(store.rows[0].reportedVersion).toBe(store.rows[0].version);
  });

  it('tries again after a cut link, but not after the service refused', async () => {
    const { store, printer, uplink } = setUp();
    uplink.refuse = new LinkUnavailableError('closed');
    await printer.enqueue(order('a'));
    await idle();
    expect(store.rows[0].reportedVersion).toBe(0);

    uplink.refuse = new ContractError('PAR-001', 'no');
    printer.report();
    await idle();
    expect(store.rows[0].reportedVersion).toBe(store.rows[0].version);
  });

  it.each(['timeout', 'unreadable'] as const)(
    'sends a report again when the service did not answer it (%s), while the link stays up',
    async (reason) => {
      const { store, printer, uplink, timers } = setUp();
      uplink.refuse = new LinkUnavailableError(reason);
      await printer.enqueue(order('a'));
      await idle();
      expect(store.rows[0]).toMatchObject({ status: 'COMPLETED', reportedVersion: 0 });

      uplink.refuse = undefined;
      await timers.advance(999);
      expect(uplink.sent).toEqual([]);
      await timers.advance(1);
      expect(uplink.sent).toEqual([
        { type: 'print', report: expect.objectContaining({ printJobId: 'a', status: 'COMPLETED' }) },
      ]);
      expect(store.rows[0].reportedVersion).toBe(store.rows[0].version);
      expect(timers.pending).toBe(0);
    },
  );

  it('waits for the link after a cut, with no timer, and sets none once stopped', async () => {
    const { printer, uplink, timers } = setUp();
    uplink.refuse = new LinkUnavailableError('closed');
    await printer.enqueue(order('a'));
    await idle();
    expect(timers.pending).toBe(0);

    uplink.refuse = new LinkUnavailableError('timeout');
    printer.report();
    await idle();
    expect(timers.pending).toBe(1);
    printer.stop();
    expect(timers.pending).toBe(0);
  });
});
