import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer as createHttpServer, type Server } from 'node:http';
import {
  createServer as createTcpServer,
  connect,
  type AddressInfo,
  type Server as TcpServer,
  type Socket,
} from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Webhook } from 'standardwebhooks';
import { WebSocket } from 'ws';
import { createTpsClient, type TpsClient } from '@tps/client';
import { signRequest } from '@tps/contracts';
import { poll, Stack } from '@tps/testing';

const run = promisify(execFile);
const LISTEN = join(__dirname, '..', 'dist', 'scripts', 'listen.js');
const TRIGGER = join(__dirname, '..', 'dist', 'scripts', 'trigger.js');
/** Where a print job says its callback goes: nothing listens there, so only the copy is answered. */
const UNREACHABLE = 'http://127.0.0.1:9/hook';
const FINAL = ['APPROVAL', 'DECLINED', 'TERMINAL_REJECTED', 'TERMINAL_CANCELED'];

interface Account {
  merchantId: string;
  secretKey: string;
  serial: string;
  client: TpsClient;
  webhookSecret: string;
}

interface Verified {
  status: string;
  clientTransactionId: string;
  webhookId: string;
}

/** A local receiver on 127.0.0.1 that checks every delivery with the `standardwebhooks` library. */
class VerifyingReceiver {
  readonly verified: Verified[] = [];
  readonly refused: string[] = [];
  /** Verified deliveries still to answer 503, as a receiver that is briefly down would. */
  unavailable = 0;
  private readonly server: Server;

  constructor(secret: string) {
    const webhook = new Webhook(secret);
    this.server = createHttpServer((request, response) => {
      let raw = '';
      request.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
      request.on('end', () => {
        try {
          const event = webhook.verify(raw, request.headers as Record<string, string>) as {
            status: string;
            client_transaction_id: string;
          };
          this.verified.push({
            status: event.status,
            clientTransactionId: event.client_transaction_id,
            webhookId: String(request.headers['webhook-id']),
          });
          if (this.unavailable > 0) {
            this.unavailable -= 1;
            response.writeHead(503).end('down for a moment');
            return;
          }
          response.writeHead(200).end('ok');
        } catch (error) {
          this.refused.push(String(error));
          response.writeHead(400).end('bad signature');
        }
      });
    });
  }

  async listen(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
  }

  url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  statusesOf(clientTransactionId: string): string[] {
    return this.verified.filter((v) => v.clientTransactionId === clientTransactionId).map((v) => v.status);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** A TCP relay between `listen` and the sandbox, so that a test can cut the connection for real. */
class Relay {
  private readonly sockets = new Set<Socket>();
  private readonly server: TcpServer;

  constructor(target: URL) {
    this.server = createTcpServer((inbound) => {
      const outbound = connect(Number(target.port), target.hostname);
      for (const socket of [inbound, outbound]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => undefined);
      }
      inbound.pipe(outbound).pipe(inbound);
      inbound.on('close', () => outbound.destroy());
      outbound.on('close', () => inbound.destroy());
    });
  }

  async listen(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
  }

  url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Destroys every connection it carries, as a network that drops them would. */
  cut(): void {
    for (const socket of this.sockets) socket.destroy();
  }

  close(): Promise<void> {
    this.cut();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** A running `listen` process and what it printed. */
class ListenProcess {
  output = '';
  readonly exited: Promise<number | null>;
  private readonly child: ChildProcess;

  constructor(account: Pick<Account, 'merchantId' | 'secretKey'>, forwardTo: string, sandbox: string) {
    this.child = spawn('node', [LISTEN, '--forward-to', forwardTo, '--sandbox', sandbox], {
      env: { ...process.env, MERCHANT_ID: account.merchantId, SECRET_KEY: account.secretKey },
    });
    this.child.stdout?.on('data', (chunk: Buffer) => (this.output += chunk.toString('utf8')));
    this.child.stderr?.on('data', (chunk: Buffer) => (this.output += chunk.toString('utf8')));
    this.exited = new Promise((resolve) => this.child.on('exit', (code) => resolve(code)));
  }

  count(pattern: RegExp): number {
    return this.output.match(new RegExp(pattern.source, 'gm'))?.length ?? 0;
  }

  async printed(pattern: RegExp, times = 1): Promise<void> {
    await poll(
      `listen to print ${pattern} ${times} time(s); it printed:\n${this.output}`,
      async () => (this.count(pattern) >= times ? true : undefined),
      20_000,
    );
  }

  stop(): Promise<number | null> {
    this.child.kill('SIGTERM');
    return this.exited;
  }
}

describe('listen --forward-to (contract §6.1)', () => {
  let stack: Stack;
  let a: Account;
  let b: Account;
  let receiverA: VerifyingReceiver;
  let receiverB: VerifyingReceiver;
  let relay: Relay;
  let listenA: ListenProcess;
  let listenB: ListenProcess;

  /** A merchant of its own, with no webhook secret: its deliveries carry no webhook-* headers. */
  async function unsignedAccount(): Promise<Omit<Account, 'webhookSecret'>> {
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
    const client = createTpsClient({
      baseUrl: stack.apiUrl,
      merchantId: created.merchant_id,
      secretKey: created.secret_key,
    });
    return {
      merchantId: created.merchant_id,
      secretKey: created.secret_key,
      serial: created.terminals[0].serialNumber,
      client,
    };
  }

  /** Opens a signed listen socket as the tool does; answers the socket or the refusal's status and body. */
  function openSocket(
    owner: Pick<Account, 'merchantId' | 'secretKey'>,
  ): Promise<{ ws: WebSocket } | { status: number; retryAfter: string | undefined; body: string }> {
    const signed = signRequest({
      merchantId: owner.merchantId,
      secret: owner.secretKey,
      method: 'GET',
      path: '/sandbox/listen',
    });
    const ws = new WebSocket(`${stack.apiUrl.replace(/^http/, 'ws')}/sandbox/listen`, {
      headers: { authorization: signed.authorization, timestamp: signed.timestamp },
    });
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve({ ws }));
      ws.once('unexpected-response', (_request, response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            retryAfter: response.headers['retry-after'],
            body,
          }),
        );
      });
      ws.once('error', reject);
    });
  }

  /** A merchant of its own with a webhook secret: its deliveries are signed. */
  async function account(): Promise<Account> {
    const unsigned = await unsignedAccount();
    const secret = await unsigned.client.POST('/sandbox/webhook-secret');
    expect(secret.response.status).toBe(200);
    return { ...unsigned, webhookSecret: secret.data!.secret };
  }

  /**
   * An async charge through the typed client with no webhook URL: while its merchant listens, its
   * deliveries exist and the listener's answer is each attempt's (contract §6.1).
   */
  async function charge(owner: Account, subtotal = 10_000): Promise<string> {
    const id = randomUUID();
    const answer = await owner.client.POST('/terminal/v1/{terminalSerial}/async/charge', {
      params: { path: { terminalSerial: owner.serial } },
      body: {
        amount: { iva: 1600, subtotal_iva: subtotal, subtotal_iva0: 0 },
        client_transaction_id: id,
      },
    });
    expect(answer.response.status).toBe(200);
    expect(answer.data?.status).toBe('TERMINAL_ACKNOWLEDGED');
    return id;
  }

  async function finalDelivered(receiver: VerifyingReceiver, id: string): Promise<string[]> {
    return poll(
      `the final event of ${id} to reach the local receiver`,
      async () => {
        const statuses = receiver.statusesOf(id);
        return statuses.some((status) => FINAL.includes(status)) ? statuses : undefined;
      },
      30_000,
    );
  }

  beforeAll(async () => {
    stack = await Stack.start({ instant: [] });
    [a, b] = [await account(), await account()];
    receiverA = new VerifyingReceiver(a.webhookSecret);
    receiverB = new VerifyingReceiver(b.webhookSecret);
    relay = new Relay(new URL(stack.apiUrl));
    await Promise.all([receiverA.listen(), receiverB.listen(), relay.listen()]);
    listenA = new ListenProcess(a, receiverA.url(), relay.url());
    listenB = new ListenProcess(b, receiverB.url(), stack.apiUrl);
    await listenA.printed(/^Ready: forwarding the webhooks of /);
    await listenB.printed(/^Ready: forwarding the webhooks of /);
  });

  afterAll(async () => {
    await Promise.all([listenA?.stop(), listenB?.stop()]);
    await Promise.all([receiverA?.close(), receiverB?.close(), relay?.close()]);
    await stack?.stop();
  });

  it('forwards each delivery signed as a real one; with no URL, the local answer is the attempt the sandbox records', async () => {
    const id = await charge(a);
    const statuses = await finalDelivered(receiverA, id);
    expect(statuses).toEqual(['CARD_PRESENTED', 'APPROVAL_REQUESTED', 'APPROVAL']);
    expect(receiverA.refused).toEqual([]);
    await listenA.printed(/ APPROVAL {2}\S+ {2}--> 200 \(\d+ ms\)$/);

    const deliveries = await poll(
      'the deliveries to be recorded as delivered',
      async () => {
        const listed = await a.client.GET('/sandbox/deliveries', {
          params: { query: { client_transaction_id: id } },
        });
        const items = listed.data?.items ?? [];
        return items.length === 3 && items.every((d) => d.state === 'delivered') ? items : undefined;
      },
      10_000,
    );
    for (const delivery of deliveries) {
      expect(delivery.attempts).toEqual([
        expect.objectContaining({
          n: 1,
          status_code: 200,
          error: null,
          listeners: [{ status_code: 200, error: null, latency_ms: expect.any(Number) }],
        }),
      ]);
      expect(receiverA.verified.map((v) => v.webhookId)).toContain(delivery.event_id);
    }
  });

  it("forwards a copy of a print job's callback too, signed with the job's id; its answer is recorded beside the URL's", async () => {
    const reference = `listened-${randomUUID().slice(0, 8)}`;
    const created = await a.client.POST('/terminal/v1/{terminalSerial}/print', {
      params: { path: { terminalSerial: a.serial } },
      body: {
        commands: [{ type: 'text', value: reference }],
        webhookUrl: UNREACHABLE,
        externalReference: reference,
      },
    });
    expect(created.response.status).toBe(202);
    const printJobId = created.data!.printJobId;
    const callback = await poll(
      'the print callback to reach the local receiver',
      async () => receiverA.verified.find((v) => v.webhookId === printJobId),
      30_000,
    );
    expect(callback.status).toBe('COMPLETED');
    await listenA.printed(/ COMPLETED {2}\S+ {2}--> 200 \(\d+ ms\)$/);
    const job = await poll(
      'the callback outcome recorded',
      async () => {
        const read = await a.client.GET('/terminal/v1/{terminalSerial}/print/{printJobId}', {
          params: { path: { terminalSerial: a.serial, printJobId } },
        });
        // The copy's answer may come after the URL's, and is recorded beside it then (contract §6.1).
        return read.data?.callback?.listeners?.length === 1 ? read.data : undefined;
      },
      10_000,
    );
    // The URL still gets the one attempt (nothing answers there); the copy's answer is beside it.
    expect(job.callback).toMatchObject({
      statusCode: null,
      listeners: [{ statusCode: 200, error: null, latencyMs: expect.any(Number) }],
    });
  });

  it("retries after the local receiver's 503, as the sandbox retries a URL's", async () => {
    receiverA.unavailable = 1;
    const id = await charge(a);
    await finalDelivered(receiverA, id);
    await listenA.printed(/ CARD_PRESENTED {2}\S+ {2}--> 503 \(\d+ ms\)$/);
    const listed = await poll(
      'the first event to be delivered on its second attempt',
      async () => {
        const { data } = await a.client.GET('/sandbox/deliveries', {
          params: { query: { client_transaction_id: id } },
        });
        const first = data?.items[0];
        return first?.state === 'delivered' ? first : undefined;
      },
      10_000,
    );
    expect(listed.event_status).toBe('CARD_PRESENTED');
    expect(listed.attempts.map((attempt) => attempt.status_code)).toEqual([503, 200]);
  });

  it('shows a trigger decline as it happens', async () => {
    const env = { ...process.env, MERCHANT_ID: a.merchantId, SECRET_KEY: a.secretKey };
    const { stdout } = await run('node', [TRIGGER, 'decline-51', '--async', '--sandbox', stack.apiUrl], {
      env,
    });
    expect(stdout).toContain('PASS  decline-51: DECLINED');
    await listenA.printed(/ DECLINED {2}\S+ {2}--> 200 \(\d+ ms\)$/);
    expect(receiverA.verified.map((v) => v.status)).toContain('DECLINED');
  });

  it('opens a cut connection again and forwards what comes after', async () => {
    const readyBefore = listenA.count(/^Ready: /);
    relay.cut();
    await listenA.printed(/^connection lost \(\d+\); reconnecting$/);
    await listenA.printed(/^Ready: /, readyBefore + 1);
    const id = await charge(a, 10_051);
    expect(await finalDelivered(receiverA, id)).toEqual(['CARD_PRESENTED', 'APPROVAL_REQUESTED', 'DECLINED']);
  });

  it("never gives one merchant's deliveries to another merchant's listener", async () => {
    const id = await charge(a);
    await finalDelivered(receiverA, id);
    const ofB = await charge(b);
    await finalDelivered(receiverB, ofB);
    expect(receiverB.statusesOf(id)).toEqual([]);
    expect(receiverB.refused).toEqual([]);
    expect(receiverA.statusesOf(ofB)).toEqual([]);
    expect(receiverB.verified.every((v) => v.clientTransactionId === ofB)).toBe(true);
  });

  it('prints the event id of each delivery even when the merchant has no webhook secret', async () => {
    const owner = await unsignedAccount();
    const seen: string[] = [];
    const local = createHttpServer((request, response) => {
      seen.push(String(request.headers['webhook-id'] ?? 'unsigned'));
      request.resume();
      response.writeHead(200).end('ok');
    });
    await new Promise<void>((resolve) => local.listen(0, '127.0.0.1', resolve));
    const listening = new ListenProcess(
      owner,
      `http://127.0.0.1:${(local.address() as AddressInfo).port}/hook`,
      stack.apiUrl,
    );
    try {
      await listening.printed(/^Ready: forwarding the webhooks of /);
      const id = randomUUID();
      const answer = await owner.client.POST('/terminal/v1/{terminalSerial}/async/charge', {
        params: { path: { terminalSerial: owner.serial } },
        body: {
          amount: { iva: 1600, subtotal_iva: 10_000, subtotal_iva0: 0 },
          client_transaction_id: id,
        },
      });
      expect(answer.response.status).toBe(200);
      await listening.printed(/ APPROVAL {2}[0-9a-f-]{36} {2}--> 200 \(\d+ ms\)$/);
      expect(seen).toContain('unsigned');
    } finally {
      await listening.stop();
      local.closeAllConnections();
      local.close();
    }
  });

  it('caps the listen sockets of a merchant (5): the next is 429 RATE-001, and a closed one frees its place', async () => {
    const owner = await unsignedAccount();
    const opened: WebSocket[] = [];
    try {
      for (let i = 0; i < 5; i++) {
        const socket = await openSocket(owner);
        if (!('ws' in socket)) throw new Error(`socket ${i + 1} refused: ${socket.status} ${socket.body}`);
        opened.push(socket.ws);
      }
      const refused = await openSocket(owner);
      expect('status' in refused && refused.status).toBe(429);
      if (!('status' in refused)) return;
      expect(JSON.parse(refused.body)).toMatchObject({ type: 'RATE_LIMIT', code: 'RATE-001' });
      expect(Number(refused.retryAfter)).toBeGreaterThan(0);
      // Another merchant is not counted against this one.
      const other = await openSocket(b);
      expect('ws' in other).toBe(true);
      if ('ws' in other) other.ws.close();

      const closed = opened.pop() as WebSocket;
      await new Promise<void>((resolve) => {
        closed.once('close', () => resolve());
        closed.close();
      });
      const again = await poll(
        'the closed socket to give its place back',
        async () => {
          const socket = await openSocket(owner);
          return 'ws' in socket ? socket.ws : undefined;
        },
        10_000,
      );
      opened.push(again);
    } finally {
      for (const ws of opened) ws.terminate();
    }
  });

  it("refuses to listen with another merchant's id: AUTH-001, exit 1", async () => {
    const intruder = new ListenProcess(
      { merchantId: a.merchantId, secretKey: b.secretKey },
      receiverB.url(),
      stack.apiUrl,
    );
    expect(await intruder.exited).toBe(1);
    expect(intruder.output).toContain('AUTH-001');
    expect(intruder.output).not.toContain('Ready');
  });
});
