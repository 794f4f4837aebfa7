import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { poll, Stack, WebhookReceiver, type SignedClient, type StoreKind } from '@tps/testing';
import { unwritableApiStorage } from './storage-faults';
import { describeOnStores } from './stores';

type Job = Record<string, any>;

/** Short, so that a hand-off to a stopped simulator times out quickly (contract, Print jobs). */
const HANDOFF_TIMEOUT_MS = 1000;

const FORMS = [
  ['Local', '/terminal/v1/print'],
  ['Cloud', '/terminal/v1/SIM0000002/print'],
] as const;

/**
 * Contract §19 for print jobs: once the order has left, a lost answer is 504 TER-002 naming the
 * job and where to follow it; the job is kept, and the terminal's reports finish it.
 */
describeOnStores('a print job whose hand-off answer is lost', (store: StoreKind) => {
  let stack: Stack;
  let receiver: WebhookReceiver;
  let client: SignedClient;

  beforeAll(async () => {
    stack = await Stack.start({ store, apiEnv: { PRINT_HANDOFF_TIMEOUT_MS: String(HANDOFF_TIMEOUT_MS) } });
    receiver = await WebhookReceiver.start();
    client = stack.client();
  });

  afterAll(async () => {
    await receiver?.close();
    await stack?.stop();
  });

  const simulatorPid = (): number => {
    const pid = stack.simulator?.pid;
    if (pid === undefined) throw new Error('no simulator running');
    return pid;
  };

  /** Creates a job while the simulator is stopped: the order leaves, its answer cannot come. */
  async function createWhileStopped(path: string, hookPath: string, reference: string) {
    const pid = simulatorPid();
    process.kill(pid, 'SIGSTOP');
    // A SIGSTOP is delivered, not done, when kill returns: wait to see the process stopped.
    await poll(
      'the simulator stopped',
      async () => {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        return stat.slice(stat.lastIndexOf(')') + 2).startsWith('T') ? true : undefined;
      },
      5000,
    );
    const response = await client.post<Job>(path, {
      commands: [{ type: 'text', value: reference }],
      webhookUrl: receiver.url(hookPath),
      externalReference: reference,
    });
    return response;
  }

  /** The print jobs the API holds with this externalReference, straight from its file. */
  const kept = (reference: string) =>
    stack.store.rows<{ print_job_id: string; status: string }>(
      'api',
      'SELECT print_job_id, status FROM print_jobs WHERE external_reference = ?',
      [reference],
    );

  /**
   * The 504 is TER-002 and the job is kept; the answer names it, and its Location is the job's
   * status route in the same form.
   */
  async function followed(
    response: { status: number; headers: Headers; body: Job },
    path: string,
    reference: string,
  ): Promise<string> {
    expect({ status: response.status, code: response.body.code }).toEqual({ status: 504, code: 'TER-002' });
    const [job] = await kept(reference);
    expect(job?.status).toBe('PENDING');
    expect(response.body.message).toContain(job.print_job_id);
    expect(response.headers.get('location')).toBe(`${path}/${job.print_job_id}`);
    return `${path}/${job.print_job_id}`;
  }

  describe.each(FORMS)('%s form', (_form, path) => {
    it('the terminal took it: 504 TER-002 with the job, which its reports finish (COMPLETED), called back once', async () => {
      const hookPath = `/hook/${randomUUID()}`;
      const reference = `taken-${randomUUID().slice(0, 8)}`;
      let location: string;
      try {
        location = await followed(await createWhileStopped(path, hookPath, reference), path, reference);
      } finally {
        process.kill(simulatorPid(), 'SIGCONT');
      }

      // The terminal reads the order it was sent, prints, and reports; the callback follows the
      // stored COMPLETED (no read in between could have handed the job again).
      await receiver.waitFor((all) => all.some((r) => r.path === hookPath), 15_000);
      const done = await poll(
        'the callback outcome recorded',
        async () => {
          const job = (await client.get<Job>(location)).body;
          return job.callback !== undefined ? job : undefined;
        },
        10_000,
      );
      expect(done).toMatchObject({
        status: 'COMPLETED',
        printedText: reference,
        externalReference: reference,
      });
      expect(done.callback).toMatchObject({ statusCode: 200 });
      expect(receiver.bodies(hookPath)).toEqual([
        { printJobId: done.printJobId, status: 'COMPLETED', externalReference: reference },
      ]);
    });
  });

  it('the terminal never got it (killed with the order unread): a read after the hand-off timeout hands it again, and it prints once', async () => {
    const [, path] = FORMS[1];
    const hookPath = `/hook/${randomUUID()}`;
    const reference = `lost-${randomUUID().slice(0, 8)}`;
    let location: string;
    try {
      location = await followed(await createWhileStopped(path, hookPath, reference), path, reference);
      // Nothing heard from the terminal, which does not answer: the job reads as last heard.
      const meanwhile = await client.get<Job>(location);
      expect(meanwhile.status).toBe(200);
      expect(meanwhile.body.status).toBe('PENDING');
    } finally {
      // The order dies unread with the stopped process.
      await stack.simulator?.kill();
    }
    await stack.startSimulator();

    const done = await poll(
      'the job printed after a read',
      async () => {
        const job = (await client.get<Job>(location)).body;
        return job.status === 'COMPLETED' && job.callback !== undefined ? job : undefined;
      },
      15_000,
    );
    expect(done).toMatchObject({ printedText: reference, externalReference: reference });
    expect(receiver.bodies(hookPath)).toEqual([
      { printJobId: done.printJobId, status: 'COMPLETED', externalReference: reference },
    ]);
    const printed = await stack.store.rows<{ n: number }>(
      'terminal',
      'SELECT COUNT(*) AS n FROM terminal_print_jobs WHERE print_job_id = ?',
      [done.printJobId],
    );
    expect(printed).toEqual([{ n: 1 }]);
  });

  it('a job that cannot be stored is 503 INT-002 and never reaches the terminal', async () => {
    const reference = `unstored-${randomUUID()}`;
    const storage = await unwritableApiStorage(stack, 'cut-off');
    let response;
    try {
      response = await client.post<Job>(FORMS[1][1], {
        commands: [{ type: 'text', value: 'x' }],
        externalReference: reference,
      });
    } finally {
      await storage.restore();
    }
    expect(response.status).toBe(503);
    expect(response.body).toMatchObject({ type: 'INTERNAL', code: 'INT-002' });
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    const taken = await stack.store.rows(
      'terminal',
      `SELECT print_job_id FROM terminal_print_jobs WHERE "order" LIKE ?`,
      [`%${reference}%`],
    );
    expect(taken).toEqual([]);
  });
});
