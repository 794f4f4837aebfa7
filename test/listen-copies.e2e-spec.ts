import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { createTpsClient, type TpsClient } from '@tps/client';
import { answerWith, poll, Stack, WebhookReceiver, type StoreKind } from '@tps/testing';
import { SocketListener } from './listen-socket';
import { describeOnStores } from './stores';

const LISTEN = join(__dirname, '..', 'dist', 'scripts', 'listen.js');

interface Account {
  merchantId: string;
  secretKey: string;
  serial: string;
  client: TpsClient;
}

/** The real `listen` tool, forwarding to a local receiver. */
class ListenProcess {
  output = '';
  private readonly child: ChildProcess;
  private readonly exited: Promise<unknown>;

  constructor(owner: Account, forwardTo: string, sandbox: string) {
    this.child = spawn('node', [LISTEN, '--forward-to', forwardTo, '--sandbox', sandbox], {
      env: { ...process.env, MERCHANT_ID: owner.merchantId, SECRET_KEY: owner.secretKey },
    });
    this.child.stdout?.on('data', (chunk: Buffer) => (this.output += chunk.toString('utf8')));
    this.child.stderr?.on('data', (chunk: Buffer) => (this.output += chunk.toString('utf8')));
    this.exited = new Promise((resolve) => this.child.on('exit', resolve));
  }

  async printed(pattern: RegExp): Promise<void> {
    await poll(
      `listen to print ${pattern}; it printed:\n${this.output}`,
      async () => (new RegExp(pattern.source, 'm').test(this.output) ? true : undefined),
      20_000,
    );
  }

  async stop(): Promise<void> {
    this.child.kill('SIGTERM');
    await this.exited;
  }
}

describeOnStores('listen forwards copies, never takes the attempt (contract §6.1)', (store: StoreKind) => {
  let stack: Stack;
  let atUrl: WebhookReceiver;
  let local: WebhookReceiver;

  async function account(): Promise<Account> {
    const response = await fetch(`${stack.apiUrl}/sandbox/accounts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ terminals: 1, pace: 'instant' }),
    });
    expect(response.status).toBe(201);
    const created = (await response.json()) as {
      merchant_id: string;
      secret_key: string;
      terminals: Array<{ serialNumber: string }>;
    };
    return {
      merchantId: created.merchant_id,
      secretKey: created.secret_key,
      serial: created.terminals[0].serialNumber,
      client: createTpsClient({
        baseUrl: stack.apiUrl,
        merchantId: created.merchant_id,
        secretKey: created.secret_key,
      }),
    };
  }

  /** An approved async charge; its webhooks go to `url` when given. */
  async function charge(owner: Account, url?: string): Promise<string> {
    const id = randomUUID();
    const answer = await owner.client.POST('/terminal/v1/{terminalSerial}/async/charge', {
      params: { path: { terminalSerial: owner.serial } },
      body: {
        amount: { iva: 1600, subtotal_iva: 10_000, subtotal_iva0: 0 },
        client_transaction_id: id,
        ...(url === undefined ? {} : { events_webhook_url: url }),
      },
    });
    expect(answer.response.status).toBe(200);
    return id;
  }

  /**
   * The charge's three deliveries once all are delivered, each with the answers of `listeners`
   * beside its first attempt when given (a listener's may come after the URL's, contract §6.1).
   */
  async function delivered(owner: Account, id: string, listeners?: number) {
    return poll(
      `the deliveries of ${id} to be delivered`,
      async () => {
        const { data } = await owner.client.GET('/sandbox/deliveries', {
          params: { query: { client_transaction_id: id } },
        });
        const items = data?.items ?? [];
        const done = (d: (typeof items)[number]): boolean =>
          d.state === 'delivered' &&
          (listeners === undefined || d.attempts[0]?.listeners?.length === listeners);
        return items.length === 3 && items.every(done) ? items : undefined;
      },
      20_000,
    );
  }

  const eventIdsAt = (receiver: WebhookReceiver, id: string): string[] =>
    receiver
      .bodies<{ event_id: string; client_transaction_id: string }>()
      .filter((body) => body.client_transaction_id === id)
      .map((body) => body.event_id);

  beforeAll(async () => {
    stack = await Stack.start({ instant: [], store });
    [atUrl, local] = await Promise.all([WebhookReceiver.start(), WebhookReceiver.start(answerWith(202))]);
  });

  afterAll(async () => {
    await Promise.all([atUrl?.close(), local?.close()]);
    await stack?.stop();
  });

  it('with a URL: the URL gets each webhook and answers the attempt; the listener gets a copy, its answer beside it', async () => {
    const owner = await account();
    const listening = new ListenProcess(owner, local.url('/local'), stack.apiUrl);
    try {
      await listening.printed(/^Ready: forwarding the webhooks of /);
      const id = await charge(owner, atUrl.url('/hook'));
      const deliveries = await delivered(owner, id, 1);
      await local.waitFor(() => eventIdsAt(local, id).length === 3);
      const sent = deliveries.map((d) => d.event_id);
      expect(eventIdsAt(atUrl, id)).toEqual(sent);
      expect(eventIdsAt(local, id)).toEqual(sent);
      for (const delivery of deliveries) {
        expect(delivery.attempts).toEqual([
          expect.objectContaining({
            n: 1,
            status_code: 200,
            error: null,
            listeners: [{ status_code: 202, error: null, latency_ms: expect.any(Number) }],
          }),
        ]);
      }
      // The tool shows the listener its own answer.
      await listening.printed(/ APPROVAL {2}\S+ {2}--> 202 \(\d+ ms\)$/);
    } finally {
      await listening.stop();
    }
  });

  it("a listener slower than the URL never delays the attempt's record; its answer goes beside it once it comes", async () => {
    const owner = await account();
    const listener = await SocketListener.open(stack.apiUrl, owner, 'held');
    try {
      const id = await charge(owner, atUrl.url('/hook'));
      // Recorded at the URL's answers, the listener's copies all still unanswered.
      const deliveries = await delivered(owner, id);
      expect(listener.eventIds()).toEqual(deliveries.map((d) => d.event_id));
      for (const delivery of deliveries) {
        expect(delivery.attempts).toEqual([
          expect.objectContaining({ n: 1, status_code: 200, listeners: [] }),
        ]);
      }
      listener.release(202);
      for (const delivery of await delivered(owner, id, 1)) {
        expect(delivery.attempts).toEqual([
          expect.objectContaining({
            n: 1,
            status_code: 200,
            listeners: [{ status_code: 202, error: null, latency_ms: 1 }],
          }),
        ]);
      }
    } finally {
      await listener.close();
    }
  });

  it("with no URL: the listener's 2xx is the attempt's, and the delivery is delivered", async () => {
    const owner = await account();
    const listener = await SocketListener.open(stack.apiUrl, owner, 204);
    try {
      const id = await charge(owner);
      const deliveries = await delivered(owner, id);
      expect(listener.eventIds()).toEqual(deliveries.map((d) => d.event_id));
      for (const delivery of deliveries) {
        expect(delivery.attempts).toEqual([
          expect.objectContaining({
            n: 1,
            status_code: 204,
            error: null,
            listeners: [{ status_code: 204, error: null, latency_ms: 1 }],
          }),
        ]);
      }
    } finally {
      await listener.close();
    }
  });

  it('two listeners: each gets one copy of each attempt; with no URL, the first 2xx of them answers it', async () => {
    const owner = await account();
    const refusing = await SocketListener.open(stack.apiUrl, owner, 500);
    const taking = await SocketListener.open(stack.apiUrl, owner, 200);
    try {
      const id = await charge(owner);
      const deliveries = await delivered(owner, id);
      const sent = deliveries.map((d) => d.event_id);
      expect(refusing.eventIds()).toEqual(sent);
      expect(taking.eventIds()).toEqual(sent);
      for (const delivery of deliveries) {
        expect(delivery.attempts).toHaveLength(1);
        expect(delivery.attempts[0]).toMatchObject({ status_code: 200, error: null });
        expect(delivery.attempts[0].listeners?.map((l) => l.status_code).sort()).toEqual([200, 500]);
      }
    } finally {
      await Promise.all([refusing.close(), taking.close()]);
    }
  });

  /** A print job whose callback goes to the URL's receiver; its id. */
  async function print(owner: Account): Promise<string> {
    const reference = `copied-${randomUUID().slice(0, 8)}`;
    const created = await owner.client.POST('/terminal/v1/{terminalSerial}/print', {
      params: { path: { terminalSerial: owner.serial } },
      body: {
        commands: [{ type: 'text', value: reference }],
        webhookUrl: atUrl.url('/print'),
        externalReference: reference,
      },
    });
    expect(created.response.status).toBe(202);
    return created.data!.printJobId;
  }

  type Callback = { listeners?: unknown[] };

  /** The job's recorded callback, once `ready` holds of it. */
  function callbackOf(owner: Account, printJobId: string, ready: (callback: Callback) => boolean) {
    return poll(
      'the callback outcome recorded',
      async () => {
        const read = await owner.client.GET('/terminal/v1/{terminalSerial}/print/{printJobId}', {
          params: { path: { terminalSerial: owner.serial, printJobId } },
        });
        const callback = read.data?.callback;
        return callback !== undefined && callback !== null && ready(callback) ? callback : undefined;
      },
      20_000,
    );
  }

  it("a print webhook: the URL gets the callback and answers it; the listener's copy is recorded beside it", async () => {
    const owner = await account();
    const listener = await SocketListener.open(stack.apiUrl, owner, 202);
    try {
      const printJobId = await print(owner);
      const callback = await callbackOf(owner, printJobId, () => true);
      expect(callback).toMatchObject({
        statusCode: 200,
        error: null,
        listeners: [{ statusCode: 202, error: null, latencyMs: 1 }],
      });
      expect(atUrl.bodies('/print')).toContainEqual(
        expect.objectContaining({ printJobId, status: 'COMPLETED' }),
      );
      expect(listener.copies.map((copy) => JSON.parse(copy.body) as unknown)).toEqual([
        expect.objectContaining({ printJobId, status: 'COMPLETED' }),
      ]);
    } finally {
      await listener.close();
    }
  });

  it("a print webhook: a listener slower than the URL never delays the callback's record; its answer goes beside it later", async () => {
    const owner = await account();
    const listener = await SocketListener.open(stack.apiUrl, owner, 'held');
    try {
      const printJobId = await print(owner);
      expect(await callbackOf(owner, printJobId, () => true)).toMatchObject({
        statusCode: 200,
        error: null,
        listeners: [],
      });
      expect(listener.copies).toHaveLength(1);
      listener.release(202);
      expect(
        await callbackOf(owner, printJobId, (callback) => callback.listeners?.length === 1),
      ).toMatchObject({
        statusCode: 200,
        listeners: [{ statusCode: 202, error: null, latencyMs: 1 }],
      });
    } finally {
      await listener.close();
    }
  });
});
