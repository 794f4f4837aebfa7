import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { verifyWebhook } from '@tps/delivery';
import {
  poll,
  Stack,
  WebhookReceiver,
  type ReceivedRequest,
  type Responder,
  type SignedClient,
} from '@tps/testing';
import { describeOnStores } from './stores';

type Job = Record<string, any>;

const LOCAL = 'SIM0000001';
const CLOUD = 'SIM0000002';
/** At least 100 jobs (the finding's bar), half in each form. */
const JOBS_PER_FORM = 60;
const RANK: Record<string, number> = { PENDING: 0, IN_PROGRESS: 1, COMPLETED: 2, FAILED: 2 };

type Form = 'local' | 'cloud';

/** Where a job of this form is read: Local form for the bound terminal, Cloud form by serial. */
const jobsPath = (form: Form): string =>
  form === 'local' ? '/terminal/v1/print' : `/terminal/v1/${CLOUD}/print`;

/** What the receiver saw: the status a callback told, and what GET showed right after. */
interface ReadAfterCallback {
  printJobId: string;
  told: string;
  seen: string | number;
}

/** The README's verification, written out: a consumer's own code, not the project's. */
function verifiedByHand(secret: string, headers: IncomingHttpHeaders, rawBody: string): boolean {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (typeof id !== 'string' || typeof timestamp !== 'string' || typeof signatures !== 'string') return false;
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${rawBody}`).digest('base64');
  return signatures.split(' ').some((candidate) => {
    const [version, value = ''] = candidate.split(',');
    return (
      version === 'v1' &&
      value.length === expected.length &&
      timingSafeEqual(Buffer.from(value), Buffer.from(expected))
    );
  });
}

describeOnStores('print callbacks tell only what the service has stored', (store) => {
  let stack: Stack;
  let receiver: WebhookReceiver;
  let client: SignedClient;
  const reads: ReadAfterCallback[] = [];

  /**
   * A point of sale that, on each callback, reads the job back before it even answers: the
   * hook path names the form to read it by (`/cb/{form}/{uuid}`).
   */
  const readBack: Responder = (request: ReceivedRequest, _n, response) => {
    const form = request.path.split('/')[2] as Form;
    const body = request.body as Job;
    void client
      .get<Job>(`${jobsPath(form)}/${String(body.printJobId)}`)
      .then(
        (answer) => answer.body.status ?? answer.status,
        (error: unknown) => String(error),
      )
      .then((seen) => {
        reads.push({ printJobId: body.printJobId, told: body.status, seen });
        response.statusCode = 200;
        response.end();
      });
  };

  const hook = (form: Form): string => receiver.url(`/cb/${form}/${randomUUID()}`);
  const readsOf = (printJobId: string) => reads.filter((r) => r.printJobId === printJobId);
  /** Reads are made after the receipt, so they are waited for by polling, not by the receiver. */
  const readsDone = (ids: string[], timeoutMs = 10_000) =>
    poll(
      `${ids.length} reads after callbacks`,
      () => Promise.resolve(ids.every((id) => readsOf(id).length > 0) ? true : undefined),
      timeoutMs,
    );

  beforeAll(async () => {
    stack = await Stack.start({ store });
    receiver = await WebhookReceiver.start(readBack);
    client = stack.client();
  });

  afterAll(async () => {
    await receiver?.close();
    await stack?.stop();
  });

  /** Creates a job; GET right after the 202 shows it, at the answered status or a later one. */
  async function create(form: Form, body: Record<string, unknown>): Promise<Job> {
    const created = await client.post<Job>(jobsPath(form), body);
    expect(created.status).toBe(202);
    const read = await client.get<Job>(`${jobsPath(form)}/${String(created.body.printJobId)}`);
    expect(read.status).toBe(200);
    expect(RANK[read.body.status]).toBeGreaterThanOrEqual(RANK[created.body.status]);
    return created.body;
  }

  it(`shows the told status on a GET right after each of ${2 * JOBS_PER_FORM} callbacks: no stale read`, async () => {
    // The Local-form terminal fails its jobs, the Cloud-form one prints them: both final states.
    await client.patch(`/sandbox/terminals/${LOCAL}`, { printer: 'cover_open' });
    try {
      const jobs: Job[] = [];
      for (let i = 0; i < JOBS_PER_FORM; i++) {
        for (const form of ['local', 'cloud'] as const) {
          jobs.push(
            await create(form, { commands: [{ type: 'text', value: `#${i}` }], webhookUrl: hook(form) }),
          );
        }
      }
      const ids = new Set(jobs.map((job) => job.printJobId as string));
      await readsDone([...ids], 30_000);

      const mine = reads.filter((r) => ids.has(r.printJobId));
      expect(new Set(mine.map((r) => r.printJobId)).size).toBe(ids.size);
      expect(new Set(mine.map((r) => r.told))).toEqual(new Set(['COMPLETED', 'FAILED']));
      const stale = mine.filter((r) => r.seen !== r.told);
      expect({ staleReads: stale.length, callbacks: mine.length }).toEqual({
        staleReads: 0,
        callbacks: 2 * JOBS_PER_FORM,
      });
      expect(stale).toEqual([]);
    } finally {
      await client.patch(`/sandbox/terminals/${LOCAL}`, { printer: 'ok' });
    }
  });

  it('calls back a job printed while its uplink was cut only once the service has stored it', async () => {
    expect((await client.post(`/sandbox/terminals/${LOCAL}/offline`)).status).toBe(200);
    let job: Job;
    try {
      // The Local form reaches the terminal over its local network while its uplink is cut.
      job = await create('local', {
        commands: [{ type: 'text', value: 'offline' }],
        webhookUrl: hook('local'),
      });
      await poll(
        'the job printed on the terminal',
        async () => {
          const rows = await stack.store.rows<{ status: string }>(
            'terminal',
            'SELECT status FROM terminal_print_jobs WHERE print_job_id = ?',
            [job.printJobId],
          );
          return rows[0]?.status === 'COMPLETED' ? true : undefined;
        },
        10_000,
      );
      // Printed, but the service has not heard of it: nothing may tell it yet.
      expect((await client.get<Job>(`${jobsPath('local')}/${String(job.printJobId)}`)).body.status).toBe(
        'PENDING',
      );
      expect(readsOf(job.printJobId)).toEqual([]);
    } finally {
      expect((await client.post(`/sandbox/terminals/${LOCAL}/online`)).status).toBe(200);
    }

    await readsDone([job.printJobId]);
    expect(readsOf(job.printJobId)).toEqual([
      { printJobId: job.printJobId, told: 'COMPLETED', seen: 'COMPLETED' },
    ]);
    const recorded = await poll(
      'the callback outcome recorded',
      async () => {
        const answer = await client.get<Job>(`${jobsPath('local')}/${String(job.printJobId)}`);
        return answer.body.callback === undefined ? undefined : answer.body;
      },
      10_000,
    );
    expect(recorded.callback).toMatchObject({ statusCode: 200, error: null });
  });

  it('signs the callback with the Standard Webhooks headers while the merchant has a secret, by printJobId', async () => {
    const secret = (await client.post<{ secret: string }>('/sandbox/webhook-secret')).body.secret;
    expect(secret).toMatch(/^whsec_/);
    try {
      const job = await create('cloud', {
        commands: [{ type: 'text', value: 'signed' }],
        webhookUrl: hook('cloud'),
        externalReference: 'order-signed',
      });
      await readsDone([job.printJobId]);
      const callback = receiver.received.find((r) => (r.body as Job).printJobId === job.printJobId);
      if (callback === undefined) throw new Error('no callback received');
      expect(callback.body).toEqual({
        printJobId: job.printJobId,
        status: 'COMPLETED',
        externalReference: 'order-signed',
      });
      expect(callback.headers['webhook-id']).toBe(job.printJobId);
      expect(Math.abs(Number(callback.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(300);
      expect(verifiedByHand(secret, callback.headers, callback.raw)).toBe(true);
      const headers = callback.headers as Record<string, string>;
      expect(verifyWebhook(secret, headers, callback.raw, Math.floor(Date.now() / 1000))).toBe(true);
      // Another secret does not verify it: the signature is the merchant's.
      const other = (await client.post<{ secret: string }>('/sandbox/webhook-secret')).body.secret;
      expect(verifiedByHand(other, callback.headers, callback.raw)).toBe(false);
    } finally {
      expect((await client.delete('/sandbox/webhook-secret')).status).toBe(204);
    }

    const unsigned = await create('cloud', {
      commands: [{ type: 'text', value: 'plain' }],
      webhookUrl: hook('cloud'),
    });
    await readsDone([unsigned.printJobId]);
    const plain = receiver.received.find((r) => (r.body as Job).printJobId === unsigned.printJobId);
    expect(plain?.headers['webhook-signature']).toBeUndefined();
    expect(plain?.headers['webhook-id']).toBeUndefined();
  });

  it('makes a callback cut by a stop of the service again when it starts, and records that attempt', async () => {
    const hookPath = `/cb/cloud/${randomUUID()}`;
    const hookUrl = receiver.url(hookPath);
    // The first delivery of this hook gets no answer: the attempt is in flight when the stop comes.
    receiver.respondWith((request, n, response) => {
      if (request.path === hookPath && receiver.received.filter((r) => r.path === hookPath).length === 1)
        return;
      readBack(request, n, response);
    });
    try {
      const job = await create('cloud', { commands: [{ type: 'text', value: 'cut' }], webhookUrl: hookUrl });
      await receiver.waitFor((all) => all.some((r) => r.path === hookPath));
      expect(
        (await client.get<Job>(`${jobsPath('cloud')}/${String(job.printJobId)}`)).body.callback,
      ).toBeUndefined();

      await stack.api.stop();
      await stack.startApi({ PORT: String(stack.api.port) });
      await stack.waitLinked(3);

      await readsDone([job.printJobId]);
      expect(readsOf(job.printJobId)).toEqual([
        { printJobId: job.printJobId, told: 'COMPLETED', seen: 'COMPLETED' },
      ]);
      const bodies = receiver.received.filter((r) => r.path === hookPath).map((r) => r.raw);
      expect(bodies).toHaveLength(2);
      expect(bodies[1]).toBe(bodies[0]);
      const recorded = await poll(
        'the callback outcome recorded',
        async () => {
          const answer = await client.get<Job>(`${jobsPath('cloud')}/${String(job.printJobId)}`);
          return answer.body.callback === undefined ? undefined : answer.body;
        },
        10_000,
      );
      expect(recorded.callback).toMatchObject({ statusCode: 200, error: null });
    } finally {
      receiver.respondWith(readBack);
    }
  });
});
