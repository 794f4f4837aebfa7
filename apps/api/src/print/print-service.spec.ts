import { isStorageFailure, SerialWriter } from '@tps/database';
import { ContractError, FollowableOutcomeUnknownError } from '@tps/domain';
import type { PrintJobReport, TerminalRequest } from '@tps/link';
import type { MerchantEntity } from '../auth/merchant.entity';
import type { MerchantClock } from '../clock/merchant-clock';
import type { ApiConfig } from '../config/api-config';
import type { TerminalLinks } from '../link/terminal-links';
import type { ApiMessages } from '../messages/api-messages';
import type { PrintCallbacks } from '../print-jobs/print-callbacks';
import { PrintJobEntity } from '../print-jobs/print-job.entity';
import { PrintJobRepository } from '../print-jobs/print-job.repository';
import { PrintReportIngest } from '../print-jobs/print-report-ingest';
import type { RequestForm } from '../terminals/request-form';
import type { TerminalEntity } from '../terminals/terminal.entity';
import type { TerminalResolver } from '../terminals/terminal-resolver';
import { openApiDatabase, type ApiDatabase } from '../testing/api-database';
import type { ReceiptTransactionsRepository } from './receipt-transactions.repository';
import { PrintService } from './print-service';

// Nest ships as ES modules, which Jest does not load; the decorators only matter to DI.
jest.mock('@nestjs/common', () => ({
  Injectable: () => () => undefined,
  Inject: () => () => undefined,
  Logger: class {
    warn(): void {}
  },
}));

const HANDOFF_TIMEOUT_MS = 10_000;
const MERCHANT = { merchantId: 'm-1', boundTerminalSerial: 'SIM1', clockOffsetSeconds: 0 } as MerchantEntity;
const TERMINAL = { serialNumber: 'SIM1', merchantId: 'm-1' } as TerminalEntity;

/** A terminal's link scripted by the test; it records the print orders it was sent. */
class FakeLink {
  readonly sent: Array<{ form: RequestForm; request: TerminalRequest }> = [];
  answer: (printJobId: string, at: string) => Promise<PrintJobReport> = async (printJobId, at) => ({
    printJobId,
    status: 'PENDING',
    updatedAt: at,
  });

  async send<T>(_terminal: TerminalEntity, form: RequestForm, request: TerminalRequest): Promise<T> {
    this.sent.push({ form, request });
    await new Promise((resolve) => setImmediate(resolve));
    if (request.type !== 'print') throw new Error(`unexpected ${request.type}`);
    return (await this.answer(request.job.printJobId, new Date(0).toISOString())) as T;
  }
}

describe('PrintService hand-off (real SQLite, fake link)', () => {
  let database: ApiDatabase;
  let jobs: PrintJobRepository;
  let link: FakeLink;
  let ingest: PrintReportIngest;
  let service: PrintService;
  let called: string[];
  let at: number;

  beforeEach(async () => {
    database = await openApiDatabase();
    const { dataSource } = database;
    jobs = new PrintJobRepository(new SerialWriter(dataSource), dataSource, {
      replica: 'api/',
      id: 'api/1',
      leaseMs: 30_000,
      unleasedAfterMs: 40_000,
      merchantCap: 56,
    });
    link = new FakeLink();
    called = [];
    at = Date.UTC(2026, 10, 26, 12, 0, 0);
    const callbacks = {
      send: (job: PrintJobEntity) => called.push(job.printJobId),
    } as unknown as PrintCallbacks;
    ingest = new PrintReportIngest(jobs, callbacks, { publish: () => undefined } as unknown as ApiMessages);
    service = new PrintService(
      { PRINT_HANDOFF_TIMEOUT_MS: HANDOFF_TIMEOUT_MS } as ApiConfig,
      { now: () => new Date(at), offsetMs: () => 0 } as unknown as MerchantClock,
      { resolve: async () => TERMINAL } as unknown as TerminalResolver,
      link as unknown as TerminalLinks,
      jobs,
      ingest,
      {} as ReceiptTransactionsRepository,
    );
  });

  afterEach(() => database.close());

  const create = (form: RequestForm = 'cloud') =>
    service.create(MERCHANT, form, form === 'cloud' ? 'SIM1' : undefined, {
      commands: [{ type: 'text', value: 'hello' }],
      webhookUrl: 'http://127.0.0.1:1/hook',
    });
  const caught = (promise: Promise<unknown>): Promise<unknown> =>
    promise.then(
      () => undefined,
      (error: unknown) => error,
    );
  const stored = () => database.dataSource.getRepository(PrintJobEntity).find();
  const report = (printJobId: string, status: PrintJobReport['status']): PrintJobReport => ({
    printJobId,
    status,
    updatedAt: new Date(at).toISOString(),
    ...(status === 'COMPLETED' ? { printedText: 'hello' } : {}),
  });

  it.each([
    ['cloud', '/terminal/v1/SIM1/print/'],
    ['local', '/terminal/v1/print/'],
  ] as const)(
    'a lost answer once sent (%s) keeps the job: 504 TER-002 naming it and its status route; its report finishes it and calls back once',
    async (form, route) => {
      link.answer = async () => {
        throw new ContractError('TER-002', 'terminal SIM1 did not answer in time; the outcome is unknown');
      };
      const error = await caught(create(form));
      const [job] = await stored();
      expect(job?.status).toBe('PENDING');
      expect(error).toBeInstanceOf(FollowableOutcomeUnknownError);
      const lost = error as FollowableOutcomeUnknownError;
      expect(lost.code).toBe('TER-002');
      expect(lost.location).toBe(`${route}${job.printJobId}`);
      expect(lost.message).toContain(job.printJobId);

      await ingest.ingest('SIM1', report(job.printJobId, 'COMPLETED'));
      await ingest.ingest('SIM1', report(job.printJobId, 'COMPLETED'));
      expect((await stored())[0].status).toBe('COMPLETED');
      expect(called).toEqual([job.printJobId]);
    },
  );

  it('a refusal or a link down before sending (TER-001) keeps nothing', async () => {
    link.answer = async () => {
      throw new ContractError('TER-001', 'terminal SIM1 is offline');
    };
    expect(await caught(create())).toMatchObject({ code: 'TER-001' });
    expect(await stored()).toEqual([]);
  });

  it('a job that cannot be stored is a storage failure (503 INT-002) and is never sent', async () => {
    await database.dataSource.query('PRAGMA query_only = ON');
    expect(isStorageFailure(await caught(create()))).toBe(true);
    expect(link.sent).toEqual([]);
  });

  it('a read of a job still PENDING past the hand-off timeout hands it again, once for reads at once, and answers what the terminal said', async () => {
    link.answer = async () => {
      throw new ContractError('TER-002', 'no answer');
    };
    await caught(create());
    const [{ printJobId }] = await stored();
    link.sent.length = 0;

    at += HANDOFF_TIMEOUT_MS - 1;
    expect((await service.get(MERCHANT, 'cloud', 'SIM1', printJobId)).status).toBe('PENDING');
    expect(link.sent).toEqual([]);

    at += 1;
    link.answer = async (id) => report(id, 'COMPLETED');
    const reads = await Promise.all(
      [1, 2, 3].map(() => service.get(MERCHANT, 'local', undefined, printJobId)),
    );
    expect(reads.map((read) => read.status)).toEqual(['COMPLETED', 'COMPLETED', 'COMPLETED']);
    expect(link.sent).toHaveLength(1);
    expect(link.sent[0]).toMatchObject({ form: 'local', request: { type: 'print', job: { printJobId } } });
    expect(called).toEqual([printJobId]);
  });

  it('a read while the terminal cannot be reached, or behind a later report, answers the job as last heard', async () => {
    link.answer = async () => {
      throw new ContractError('TER-002', 'no answer');
    };
    await caught(create());
    const [{ printJobId }] = await stored();
    at += HANDOFF_TIMEOUT_MS;

    link.answer = async () => {
      throw new ContractError('TER-001', 'offline');
    };
    expect((await service.get(MERCHANT, 'cloud', 'SIM1', printJobId)).status).toBe('PENDING');

    // The uplink's COMPLETED is stored while the hand-off's answer, older, is on its way.
    link.answer = async (id) => {
      await ingest.ingest('SIM1', report(id, 'COMPLETED'));
      return report(id, 'PENDING');
    };
    expect((await service.get(MERCHANT, 'cloud', 'SIM1', printJobId)).status).toBe('COMPLETED');
    expect(called).toEqual([printJobId]);
  });
});
