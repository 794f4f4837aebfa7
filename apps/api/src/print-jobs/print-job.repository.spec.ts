import { randomUUID } from 'node:crypto';
import { SerialWriter } from '@tps/database';
import { openApiDatabase, type ApiDatabase } from '../testing/api-database';
import { PrintJobEntity } from './print-job.entity';
import { PrintJobRepository } from './print-job.repository';

// Nest ships as ES modules, which Jest does not load; the decorators only matter to DI.
jest.mock('@nestjs/common', () => ({ Injectable: () => () => undefined, Inject: () => () => undefined }));

const LEASE_MS = 30_000;
const ok = { attemptedAt: '2026-01-01T00:00:00.000Z', statusCode: 200, error: null, latencyMs: 3 };

describe('print callbacks leased on a real SQLite file', () => {
  let database: ApiDatabase;
  let jobs: PrintJobRepository;
  /** Another process on the same database. */
  let other: PrintJobRepository;

  beforeEach(async () => {
    database = await openApiDatabase();
    const { dataSource } = database;
    const writer = new SerialWriter(dataSource);
    jobs = new PrintJobRepository(writer, dataSource, {
      replica: 'a/',
      id: 'a/1',
      leaseMs: LEASE_MS,
      unleasedAfterMs: 2 * LEASE_MS,
      merchantCap: 56,
    });
    other = new PrintJobRepository(writer, dataSource, {
      replica: 'b/',
      id: 'b/1',
      leaseMs: LEASE_MS,
      unleasedAfterMs: 2 * LEASE_MS,
      merchantCap: 56,
    });
  });

  afterEach(() => database.close());

  /** A job printed on SIM1 and reported COMPLETED to `by`. */
  async function finished(by: PrintJobRepository): Promise<PrintJobEntity> {
    const printJobId = randomUUID();
    const now = new Date().toISOString();
    await by.insert({
      printJobId,
      merchantId: 'demo-merchant',
      terminalSerial: 'SIM1',
      status: 'PENDING',
      externalReference: '',
      webhookUrl: 'http://127.0.0.1:9/printed',
      transactionReference: null,
      commands: [{ type: 'cut' }],
      errorCode: null,
      errorMessage: null,
      printedText: null,
      callback: null,
      callbackOwner: null,
      callbackLeaseUntil: null,
      callbackLeaseEpoch: 0,
      createdAt: now,
      updatedAt: now,
    });
    const result = await by.applyReport('SIM1', { printJobId, status: 'COMPLETED', updatedAt: now });
    expect(result).toMatchObject({
      applied: true,
      finished: { printJobId, callbackOwner: expect.any(String) },
    });
    return (result as { finished: PrintJobEntity }).finished;
  }

  it('leases the callback to the process that stores the result, which alone records its outcome', async () => {
    const job = await finished(jobs);
    expect(await other.claimCallbacks(Date.now(), Date.now() + LEASE_MS, 10)).toEqual([]);
    expect(await other.recordCallback(job, ok)).toBe(false);
    expect(await jobs.recordCallback(job, ok)).toBe(true);
  });

  it("claims a callback once its lease ended, or once it was given back; never a process's own", async () => {
    const job = await finished(jobs);
    const later = Date.now() + LEASE_MS + 1;
    expect(await jobs.claimCallbacks(later, later + LEASE_MS, 10)).toEqual([]);
    const claimed = await other.claimCallbacks(later, later + LEASE_MS, 10);
    expect(claimed.map((one) => [one.printJobId, one.callbackOwner])).toEqual([[job.printJobId, 'b/1']]);
    expect(await jobs.recordCallback(job, ok)).toBe(false);

    const { printJobId: given } = await finished(jobs);
    await jobs.releaseCallbacks();
    expect(
      (await other.claimCallbacks(Date.now(), Date.now() + LEASE_MS, 10)).map((job) => job.printJobId),
    ).toEqual([given]);
  });

  it('records no outcome of an attempt from an earlier lease of the same process, lost and claimed again since', async () => {
    const job = await finished(jobs);
    const later = Date.now() + LEASE_MS + 1;
    await other.claimCallbacks(later, later + LEASE_MS, 10);
    await other.releaseCallbacks();
    const [again] = await jobs.claimCallbacks(later, later + LEASE_MS, 10);
    expect(again.printJobId).toBe(job.printJobId);
    expect(await jobs.recordCallback(job, ok)).toBe(false);
    expect(await jobs.recordCallback(again, ok)).toBe(true);
  });

  it('leaves a callback never leased (a process of the version before leases) to its writer until its attempt is overdue', async () => {
    const { printJobId } = await finished(jobs);
    // As that version finishes a job: no lease.
    await database.dataSource.query(
      'UPDATE print_jobs SET callback_owner = NULL, callback_lease_until = NULL WHERE print_job_id = ?',
      [printJobId],
    );
    const now = Date.now();
    expect(await other.claimCallbacks(now, now + LEASE_MS, 10)).toEqual([]);
    const beforeOverdue = now + 2 * LEASE_MS - 1;
    expect(await other.claimCallbacks(beforeOverdue, beforeOverdue + LEASE_MS, 10)).toEqual([]);
    const overdue = now + 2 * LEASE_MS + 1;
    const claimed = await other.claimCallbacks(overdue, overdue + LEASE_MS, 10);
    expect(claimed.map((job) => [job.printJobId, job.callbackOwner])).toEqual([[printJobId, 'b/1']]);
  });

  it('renews only the attempts under way, and a SQLite process starting adopts every unsent callback', async () => {
    const { printJobId } = await finished(jobs);
    expect(await jobs.renewCallbacks(Date.now() + 2 * LEASE_MS, [printJobId, randomUUID()])).toEqual([
      printJobId,
    ]);
    expect((await other.adoptCallbacks()).map((job) => [job.printJobId, job.callbackOwner])).toEqual([
      [printJobId, 'b/1'],
    ]);
  });
});
