import { randomUUID } from 'node:crypto';
import {
  OTHER_MERCHANT,
  poll,
  Stack,
  WebhookReceiver,
  type SignedClient,
  type Responder,
} from '@tps/testing';
import { describeOnStores } from './stores';

type Job = Record<string, any>;

/** A short callback timeout, so that a receiver that never answers does not hold the suite 15 s. */
const CALLBACK_TIMEOUT_MS = 4000;
const FINAL = ['COMPLETED', 'FAILED'];

const FORMS = [
  ['Local', '/terminal/v1/print', 'SIM0000001'],
  ['Cloud', '/terminal/v1/SIM0000002/print', 'SIM0000002'],
] as const;

/** 500 under /fail, no answer at all under /hang, 200 elsewhere. */
const byPath: Responder = (request, _n, response) => {
  if (request.path.startsWith('/hang')) return;
  response.statusCode = request.path.startsWith('/fail') ? 500 : 200;
  response.end();
};

function receipt(value = 'Thank you') {
  return [
    { type: 'text', value: 'DEMO STORE', align: 'center', bold: true },
    { type: 'text', value },
    { type: 'qr', value: 'https://example.com/r/1' },
    { type: 'feed', lines: 1 },
    { type: 'cut' },
  ];
}

describeOnStores('print jobs end to end', (store) => {
  let stack: Stack;
  let receiver: WebhookReceiver;
  let client: SignedClient;

  beforeAll(async () => {
    stack = await Stack.start({ store, apiEnv: { PRINT_CALLBACK_TIMEOUT_MS: String(CALLBACK_TIMEOUT_MS) } });
    receiver = await WebhookReceiver.start(byPath);
    client = stack.client();
  });

  afterAll(async () => {
    await receiver?.close();
    await stack?.stop();
  });

  async function create(path: string, body: Record<string, unknown>): Promise<Job> {
    const response = await client.post<Job>(path, body);
    expect(response.status).toBe(202);
    return response.body;
  }

  function finalJob(
    path: string,
    printJobId: string,
    until: (job: Job) => boolean = (j) => FINAL.includes(j.status),
  ) {
    return poll(
      `print job ${printJobId}`,
      async () => {
        const response = await client.get<Job>(`${path}/${printJobId}`);
        return response.status === 200 && until(response.body) ? response.body : undefined;
      },
      15_000,
    );
  }

  const hook = (prefix = '/hook') => `${prefix}/${randomUUID()}`;
  const received = (path: string) => receiver.received.filter((r) => r.path === path);

  describe.each(FORMS)('%s form', (_form, path, serial) => {
    afterEach(async () => {
      await client.patch(`/sandbox/terminals/${serial}`, { printer: 'ok' });
    });

    it('answers 202 with the job record, prints it, and sends one COMPLETED webhook echoing externalReference', async () => {
      const hookPath = hook();
      const job = await create(path, {
        commands: receipt(),
        webhookUrl: receiver.url(hookPath),
        externalReference: 'order-42',
      });
      expect(job).toMatchObject({ externalReference: 'order-42', terminalSerial: serial });
      expect(job.printJobId).toMatch(/^[0-9a-f-]{36}$/);
      expect(['PENDING', 'IN_PROGRESS', 'COMPLETED']).toContain(job.status);
      expect(job.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(job.errorCode).toBeUndefined();

      await receiver.waitFor(() => received(hookPath).length === 1);
      expect(received(hookPath)[0].body).toEqual({
        printJobId: job.printJobId,
        status: 'COMPLETED',
        externalReference: 'order-42',
      });
      expect(received(hookPath)[0].headers['content-type']).toMatch(/^application\/json/);

      const done = await finalJob(path, job.printJobId, (j) => j.callback !== undefined);
      expect(done).toMatchObject({
        status: 'COMPLETED',
        externalReference: 'order-42',
        terminalSerial: serial,
      });
      expect(done.callback).toMatchObject({ statusCode: 200, error: null });
      const lines: string[] = done.printedText.split('\n');
      expect(lines).toContain(`${' '.repeat(11)}DEMO STORE`);
      expect(lines).toContain('Thank you');
      for (const line of lines) expect(line.length).toBeLessThanOrEqual(32);
      expect(received(hookPath)).toHaveLength(1);
    });

    it('echoes externalReference as "" when none was given', async () => {
      const hookPath = hook();
      const job = await create(path, { commands: receipt(), webhookUrl: receiver.url(hookPath) });
      expect(job.externalReference).toBe('');
      await receiver.waitFor(() => received(hookPath).length === 1);
      expect(received(hookPath)[0].body).toEqual({
        printJobId: job.printJobId,
        status: 'COMPLETED',
        externalReference: '',
      });
    });

    it('fails with COVER_OPEN and an errorMessage while the cover is open', async () => {
      expect((await client.patch(`/sandbox/terminals/${serial}`, { printer: 'cover_open' })).status).toBe(
        200,
      );
      const hookPath = hook();
      const job = await create(path, {
        commands: receipt(),
        webhookUrl: receiver.url(hookPath),
        externalReference: 'x',
      });

      await receiver.waitFor(() => received(hookPath).length === 1);
      const payload = received(hookPath)[0].body as Job;
      expect(Object.keys(payload).sort()).toEqual([
        'errorCode',
        'errorMessage',
        'externalReference',
        'printJobId',
        'status',
      ]);
      expect(payload).toMatchObject({
        printJobId: job.printJobId,
        status: 'FAILED',
        errorCode: 'COVER_OPEN',
      });
      expect(payload.errorMessage).toEqual(expect.any(String));

      const failed = await finalJob(path, job.printJobId);
      expect(failed).toMatchObject({
        status: 'FAILED',
        errorCode: 'COVER_OPEN',
        errorMessage: payload.errorMessage,
      });
      expect(failed.printedText).toBeUndefined();
    });

    it('fails with PAPER_OUT while the paper is out, and prints again once it is back', async () => {
      await client.patch(`/sandbox/terminals/${serial}`, { printer: 'paper_out' });
      const failed = await finalJob(path, (await create(path, { commands: receipt() })).printJobId);
      expect(failed).toMatchObject({ status: 'FAILED', errorCode: 'PAPER_OUT' });

      await client.patch(`/sandbox/terminals/${serial}`, { printer: 'ok' });
      const printed = await finalJob(path, (await create(path, { commands: receipt() })).printJobId);
      expect(printed.status).toBe('COMPLETED');
    });

    it('makes one attempt only at a receiver answering 500, and the next job still prints', async () => {
      const failing = hook('/fail');
      const first = await create(path, { commands: receipt(), webhookUrl: receiver.url(failing) });
      const nextHook = hook();
      const next = await create(path, { commands: receipt(), webhookUrl: receiver.url(nextHook) });

      // The next job's webhook is sent after the first job's: by then any retry would have shown.
      await receiver.waitFor(() => received(nextHook).length === 1);
      const firstDone = await finalJob(path, first.printJobId, (j) => j.callback !== undefined);
      expect(firstDone.status).toBe('COMPLETED');
      expect(firstDone.callback).toMatchObject({ statusCode: 500, error: 'HTTP 500' });
      expect((await finalJob(path, next.printJobId)).status).toBe('COMPLETED');
      expect(received(failing)).toHaveLength(1);
    });

    it('makes one attempt only at a receiver that never answers, and prints the next job without waiting', async () => {
      const hanging = hook('/hang');
      const first = await create(path, { commands: receipt(), webhookUrl: receiver.url(hanging) });
      await receiver.waitFor(() => received(hanging).length === 1);
      const nextHook = hook();
      const next = await create(path, { commands: receipt(), webhookUrl: receiver.url(nextHook) });

      await receiver.waitFor(() => received(nextHook).length === 1);
      expect((await finalJob(path, next.printJobId)).status).toBe('COMPLETED');
      // The first job's callback is still waiting for its answer, yet the next job is done.
      const firstMeanwhile = (await client.get<Job>(`${path}/${first.printJobId}`)).body;
      expect(firstMeanwhile.status).toBe('COMPLETED');
      expect(firstMeanwhile.callback).toBeUndefined();

      const firstDone = await finalJob(path, first.printJobId, (j) => j.callback !== undefined);
      expect(firstDone.callback).toMatchObject({ statusCode: null, error: 'timeout' });
      expect(received(hanging)).toHaveLength(1);
    });
  });

  it("prints one terminal's jobs one at a time, in the order they came", async () => {
    await client.patch('/sandbox/terminals/SIM0000002', { pace: 'fast' });
    try {
      const path = '/terminal/v1/SIM0000002/print';
      const hookPath = hook();
      const jobs: Job[] = [];
      for (let i = 0; i < 5; i++) {
        jobs.push(
          await create(path, {
            commands: [{ type: 'text', value: `job ${i}` }],
            webhookUrl: receiver.url(hookPath),
            externalReference: `n${i}`,
          }),
        );
      }
      await receiver.waitFor(() => received(hookPath).length === 5);
      expect(received(hookPath).map((r) => (r.body as Job).externalReference)).toEqual([
        'n0',
        'n1',
        'n2',
        'n3',
        'n4',
      ]);
      const done = await Promise.all(jobs.map((job) => finalJob(path, job.printJobId)));
      done.forEach((job, i) => {
        expect(job.status).toBe('COMPLETED');
        expect(job.printedText).toBe(`job ${i}`);
        if (i > 0) expect(Date.parse(job.updatedAt)).toBeGreaterThan(Date.parse(done[i - 1].updatedAt));
      });
    } finally {
      await client.patch('/sandbox/terminals/SIM0000002', { pace: 'instant' });
    }
  });

  describe('the receipt of a transaction', () => {
    async function approvedCharge(total: number): Promise<{ reference: string; authCode: string }> {
      const clientTransactionId = randomUUID();
      const charge = await client.post('/terminal/v1/SIM0000002/async/charge', {
        amount: { iva: 1600, subtotal_iva: total - 1600, subtotal_iva0: 0 },
        client_transaction_id: clientTransactionId,
      });
      expect(charge.status).toBe(200);
      const row = await poll(
        'the approved charge',
        async () => {
          const rows = await stack.store.rows<{
            transaction_reference: string | null;
            outcome: string | null;
          }>(
            'api',
            'SELECT transaction_reference, outcome FROM transactions WHERE client_transaction_id = ?',
            [clientTransactionId],
          );
          return rows[0]?.transaction_reference ? rows[0] : undefined;
        },
        10_000,
      );
      const outcome = JSON.parse(row.outcome ?? '{}');
      return { reference: row.transaction_reference as string, authCode: outcome.response.authCode };
    }

    it('prints merchant, masked card, amounts with IVA and the auth code', async () => {
      const { reference, authCode } = await approvedCharge(11600);
      const path = '/terminal/v1/print';
      const job = await create(path, { transaction_reference: reference, externalReference: 'receipt-1' });
      const done = await finalJob(path, job.printJobId);
      expect(done.status).toBe('COMPLETED');
      const text: string = done.printedText;
      expect(text).toContain('demo-merchant');
      expect(text).toMatch(/\*{12}4242/);
      expect(text).not.toMatch(/4242424242424242/);
      expect(text).toMatch(new RegExp(`Auth code +${authCode}`));
      expect(text).toMatch(/IVA +\$16\.00/);
      expect(text).toMatch(/TOTAL MXN +\$116\.00/);
      expect(text).toMatch(/\d{4}-\d\d-\d\d \d\d:\d\d:\d\d/);
      expect(text).toContain('No signature required');
    });

    it('answers 404 NF-001 for a reference the merchant does not have', async () => {
      const response = await client.post('/terminal/v1/print', { transaction_reference: randomUUID() });
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({ type: 'NOT_FOUND', code: 'NF-001' });
    });
  });

  it("answers 404 for another merchant's job, and for a job on another terminal", async () => {
    const job = await create('/terminal/v1/print', { commands: receipt() });
    const other = client.as(OTHER_MERCHANT);
    const local = await other.get(`/terminal/v1/print/${job.printJobId}`);
    expect(local.status).toBe(404);
    expect(local.body).toMatchObject({ type: 'NOT_FOUND', code: 'NF-003' });
    const cloud = await other.get(`/terminal/v1/SIM0000003/print/${job.printJobId}`);
    expect(cloud.body).toMatchObject({ code: 'NF-003' });
    const foreignTerminal = await other.get(`/terminal/v1/SIM0000001/print/${job.printJobId}`);
    expect(foreignTerminal.body).toMatchObject({ code: 'NF-002' });
    const wrongTerminal = await client.get(`/terminal/v1/SIM0000002/print/${job.printJobId}`);
    expect(wrongTerminal.body).toMatchObject({ code: 'NF-003' });
    expect((await client.get(`/terminal/v1/SIM0000001/print/${job.printJobId}`)).status).toBe(200);
    expect((await client.get(`/terminal/v1/print/${randomUUID()}`)).body).toMatchObject({ code: 'NF-003' });
  });

  describe('bad bodies', () => {
    const text = (value = 'a') => ({ type: 'text', value });
    it.each([
      ['no commands', {}, 'PAR-002', 'commands'],
      ['commands that are no list', { commands: 'text' }, 'PAR-002', 'commands'],
      ['no command at all', { commands: [] }, 'PAR-002', 'commands'],
      ['201 commands', { commands: Array.from({ length: 201 }, () => text()) }, 'PAR-002', 'commands'],
      [
        'a feed of 0 lines',
        { commands: [text(), text(), text(), { type: 'feed', lines: 0 }] },
        'PAR-002',
        'commands[3].lines',
      ],
      [
        'a feed given as a string',
        { commands: [{ type: 'feed', lines: '2' }] },
        'PAR-002',
        'commands[0].lines',
      ],
      [
        'an unknown command',
        { commands: [text(), { type: 'fax', value: 'x' }] },
        'PAR-002',
        'commands[1].type',
      ],
      ['a command with no type', { commands: [{ value: 'x' }] }, 'PAR-002', 'commands[0].type'],
      [
        'a field of another command',
        { commands: [{ type: 'cut', value: 'x' }] },
        'PAR-001',
        'commands[0].value',
      ],
      ['text with no value', { commands: [{ type: 'text' }] }, 'PAR-002', 'commands[0].value'],
      [
        'an unknown alignment',
        { commands: [{ type: 'text', value: 'a', align: 'justify' }] },
        'PAR-002',
        'commands[0].align',
      ],
      [
        'bold as a string',
        { commands: [{ type: 'text', value: 'a', bold: 'yes' }] },
        'PAR-002',
        'commands[0].bold',
      ],
      ['an empty qr', { commands: [{ type: 'qr', value: '' }] }, 'PAR-002', 'commands[0].value'],
      [
        'a barcode out of ASCII',
        { commands: [{ type: 'barcode', value: 'ñ' }] },
        'PAR-002',
        'commands[0].value',
      ],
      ['a null command', { commands: [text(), null] }, 'PAR-002', 'commands[1]'],
      ['a command that is a string', { commands: ['cut'] }, 'PAR-002', 'commands[0]'],
      ['an invalid webhookUrl', { commands: [text()], webhookUrl: 'not a url' }, 'PAR-004', 'webhookUrl'],
      [
        'a numeric externalReference',
        { commands: [text()], externalReference: 42 },
        'PAR-002',
        'externalReference',
      ],
      ['a reference that is no UUID', { transaction_reference: 'abc' }, 'PAR-002', 'transaction_reference'],
      [
        'commands and a reference',
        { commands: [text()], transaction_reference: randomUUID() },
        'PAR-002',
        'commands',
      ],
    ])('%s → 400 %s at %s', async (_case, body, code, param) => {
      for (const [, path] of FORMS) {
        const response = await client.post(path, body);
        expect(response.status).toBe(400);
        expect(response.body).toMatchObject({ type: 'PARAMETER', code, param });
      }
    });

    it('refuses events_webhook_url with a message that names webhookUrl', async () => {
      const response = await client.post('/terminal/v1/SIM0000002/print', {
        commands: [text()],
        events_webhook_url: receiver.url(),
      });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 'PAR-001', param: 'events_webhook_url' });
      expect((response.body as Job).message).toContain('webhookUrl');
    });
  });
});

describeOnStores('print jobs with no terminal reachable', (store) => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await Stack.start({ store, withoutSimulator: true });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it.each(FORMS)('%s form answers 503 TER-001 and keeps no job', async (_form, path) => {
    const response = await stack.client().post(path, { commands: receipt() });
    expect(response.status).toBe(503);
    expect(response.body).toMatchObject({ type: 'TERMINAL', code: 'TER-001' });
    const rows = await stack.store.rows('api', 'SELECT print_job_id FROM print_jobs');
    expect(rows).toEqual([]);
  });
});
