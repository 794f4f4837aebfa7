import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Agent, buildConnector } from 'undici';
import { openSilentHost, type SilentHost } from '@tps/testing';
import { guardedConnector } from './destination-policy';
import { classify } from './retry-policy';
import { AttemptAbandoned, postWebhook, recordLaterListeners, type WebhookPost } from './webhook-post';

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

/** A real receiver on 127.0.0.1 whose behaviour each test sets. */
class Receiver {
  handler: Handler = (_request, response) => response.end();
  readonly bodies: string[] = [];
  readonly headers: IncomingMessage['headers'][] = [];
  /** TCP connections accepted, even those that never carried a request. */
  connections = 0;
  private readonly sockets = new Set<Socket>();
  private readonly server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      this.bodies.push(body);
      this.headers.push(request.headers);
      this.handler(request, response);
    });
  });

  async listen(): Promise<void> {
    this.server.on('connection', (socket) => {
      this.connections += 1;
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
  }

  url(path = '/hook'): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

const post = (url: string): WebhookPost => ({
  url,
  body: '{"event_id":"e-1"}',
  headers: { 'x-test': 'yes' },
});

describe('one webhook attempt over real sockets', () => {
  let receiver: Receiver;

  beforeEach(async () => {
    receiver = new Receiver();
    await receiver.listen();
  });

  afterEach(() => receiver.close());

  it('POSTs the exact body as JSON with the given headers, and keeps the first 1 KB of the answer', async () => {
    receiver.handler = (_request, response) => {
      response.statusCode = 200;
      response.end('x'.repeat(5000));
    };
    const result = await postWebhook(post(receiver.url()), { timeoutMs: 2000 });
    expect(result.outcome).toEqual({ statusCode: 200 });
    expect(result.answerExcerpt).toBe('x'.repeat(1024));
    expect(result.latencyMs).toBeGreaterThanOrEqual(0);
    expect(receiver.bodies).toEqual(['{"event_id":"e-1"}']);
    expect(receiver.headers[0]['content-type']).toBe('application/json');
    expect(receiver.headers[0]['x-test']).toBe('yes');
  });

  it.each([408, 429, 500, 502, 503, 504, 400, 401, 403, 404, 409, 422, 501])(
    'reports the status %i answered',
    async (status) => {
      receiver.handler = (_request, response) => {
        response.statusCode = status;
        response.end(`status ${status}`);
      };
      const result = await postWebhook(post(receiver.url()), { timeoutMs: 2000 });
      expect(result.outcome).toEqual({ statusCode: status });
      expect(result.answerExcerpt).toBe(`status ${status}`);
    },
  );

  it('does not follow a redirect: the 3xx is the outcome, and gives up', async () => {
    receiver.handler = (request, response) => {
      response.statusCode = request.url === '/hook' ? 302 : 200;
      response.setHeader('location', '/elsewhere');
      response.end();
    };
    const result = await postWebhook(post(receiver.url()), { timeoutMs: 2000 });
    expect(result.outcome).toEqual({ statusCode: 302 });
    expect(classify(result.outcome)).toBe('give_up');
    expect(receiver.bodies).toHaveLength(1);
  });

  it('times out a receiver that never answers, and retries', async () => {
    receiver.handler = () => undefined;
    const result = await postWebhook(post(receiver.url()), { timeoutMs: 150 });
    expect(result.outcome).toEqual({ error: 'timeout' });
    expect(classify(result.outcome)).toBe('retry');
  });

  it('times out a receiver that answers the status but never ends the body: the status counts', async () => {
    receiver.handler = (_request, response) => {
      response.writeHead(200);
      response.write('partial');
    };
    const result = await postWebhook(post(receiver.url()), { timeoutMs: 150 });
    expect(result.outcome).toEqual({ statusCode: 200 });
    expect(result.answerExcerpt).toBe('partial');
  });

  it('keeps 1 KB of a body that never ends and does not wait for the timeout: the status counts', async () => {
    receiver.handler = (_request, response) => {
      response.writeHead(200);
      response.write('y'.repeat(3000));
    };
    const result = await postWebhook(post(receiver.url()), { timeoutMs: 5000 });
    expect(result.outcome).toEqual({ statusCode: 200 });
    expect(result.answerExcerpt).toBe('y'.repeat(1024));
    expect(result.latencyMs).toBeLessThan(5000);
  });

  it.each([['not a url'], ['ftp://127.0.0.1/hook']])(
    'reports a URL it cannot POST to (%s) as an outcome, not an exception',
    async (url) => {
      const result = await postWebhook(post(url), { timeoutMs: 2000 });
      expect(result.outcome).toEqual({ error: 'network_error' });
    },
  );

  it('reports a connection reset, and retries', async () => {
    receiver.handler = (request) => request.socket.resetAndDestroy();
    const result = await postWebhook(post(receiver.url()), { timeoutMs: 2000 });
    expect(result.outcome).toEqual({ error: 'connection_reset' });
    expect(classify(result.outcome)).toBe('retry');
  });

  it('reports a connection closed without an answer as a reset', async () => {
    receiver.handler = (request) => request.socket.destroy();
    const result = await postWebhook(post(receiver.url()), { timeoutMs: 2000 });
    expect(result.outcome).toEqual({ error: 'connection_reset' });
  });

  it('reports a refused connection, and retries', async () => {
    const url = receiver.url();
    await receiver.close();
    const result = await postWebhook(post(url), { timeoutMs: 2000 });
    expect(result.outcome).toEqual({ error: 'connection_refused' });
    expect(classify(result.outcome)).toBe('retry');
    receiver = new Receiver();
    await receiver.listen();
  });

  it('reports an unresolvable host (.invalid) as a DNS failure, and retries', async () => {
    const result = await postWebhook(post('http://receiver.invalid/hook'), { timeoutMs: 5000 });
    expect(result.outcome).toEqual({ error: 'dns_failure' });
    expect(classify(result.outcome)).toBe('retry');
  });

  // A name is refused by the guarded lookup; a literal never reaches a lookup, so the connector checks it.
  it.each([['localhost'], ['127.0.0.1'], ['[::ffff:127.0.0.1]']])(
    'refuses at connect time %s, a non-public destination, without opening a connection, and gives up',
    async (host) => {
      const publicOnly = new Agent({
        connect: guardedConnector({ requireHttps: false, allowPrivate: false, refuseOwnAddresses: false }),
      });
      const url = receiver.url().replace('127.0.0.1', host);
      try {
        const result = await postWebhook(post(url), { timeoutMs: 2000, dispatcher: publicOnly });
        expect(result.outcome).toEqual({ error: 'destination_refused' });
        expect(classify(result.outcome)).toBe('give_up');
        expect(receiver.connections).toBe(0);
      } finally {
        await publicOnly.close();
      }
    },
  );

  it.each([['localhost'], ['127.0.0.1']])(
    'connects to %s through the same connector where private addresses are allowed',
    async (host) => {
      const anywhere = new Agent({
        connect: guardedConnector({ requireHttps: false, allowPrivate: true, refuseOwnAddresses: false }),
      });
      const url = receiver.url().replace('127.0.0.1', host);
      try {
        const result = await postWebhook(post(url), { timeoutMs: 2000, dispatcher: anywhere });
        expect(result.outcome).toEqual({ statusCode: 200 });
      } finally {
        await anywhere.close();
      }
    },
  );

  it('abandons an attempt cut by shutdown, with no outcome to record', async () => {
    const arrived = new Promise<void>((resolve) => (receiver.handler = () => resolve()));
    const shutdown = new AbortController();
    const attempt = postWebhook(post(receiver.url()), { timeoutMs: 5000, shutdown: shutdown.signal });
    await arrived;
    shutdown.abort();
    await expect(attempt).rejects.toBeInstanceOf(AttemptAbandoned);
  });
});

describe('one webhook attempt to a host whose connect never completes', () => {
  /** The connector's own limit, far above the attempts' timeouts: an attempt must not wait for it. */
  const CONNECT_TIMEOUT_MS = 8000;
  let host: SilentHost;
  let agent: Agent;

  beforeAll(async () => {
    host = await openSilentHost();
  });

  afterAll(() => host.close());

  /** Sockets still connecting when a test ends: the agent's destroy does not reach them. */
  let connecting: Socket[];

  beforeEach(() => {
    connecting = [];
    // undici's connector returns the socket it opens, though its type says void.
    const connector = buildConnector({ timeout: CONNECT_TIMEOUT_MS }) as unknown as (
      ...args: Parameters<buildConnector.connector>
    ) => Socket;
    agent = new Agent({
      connect: (options, callback) => {
        connecting.push(connector(options, callback));
      },
    });
  });

  afterEach(async () => {
    for (const socket of connecting) socket.destroy(new Error('test over'));
    await agent.destroy();
  });

  it("times out at the attempt's own timeout, not the connector's, and retries", async () => {
    const result = await postWebhook(post(`http://127.0.0.1:${host.port}/hook`), {
      timeoutMs: 200,
      dispatcher: agent,
    });
    expect(result.outcome).toEqual({ error: 'timeout' });
    expect(result.latencyMs).toBeLessThan(CONNECT_TIMEOUT_MS / 2);
    expect(classify(result.outcome)).toBe('retry');
  });

  it('is abandoned at once by shutdown while still connecting', async () => {
    const shutdown = new AbortController();
    const started = Date.now();
    const attempt = postWebhook(post(`http://127.0.0.1:${host.port}/hook`), {
      timeoutMs: CONNECT_TIMEOUT_MS * 2,
      shutdown: shutdown.signal,
      dispatcher: agent,
    });
    setTimeout(() => shutdown.abort(), 50);
    await expect(attempt).rejects.toBeInstanceOf(AttemptAbandoned);
    expect(Date.now() - started).toBeLessThan(CONNECT_TIMEOUT_MS / 2);
  });
});

describe('recordLaterListeners (contract §6.1)', () => {
  it("records the slower listeners' answers once they came", async () => {
    const recorded: unknown[] = [];
    await recordLaterListeners(
      Promise.resolve([{ outcome: { statusCode: 202 }, latencyMs: 3 }]),
      async (answers) => recorded.push(answers),
    );
    expect(recorded).toEqual([[{ outcome: { statusCode: 202 }, latencyMs: 3 }]]);
  });

  it('records nothing when the service stopped first, and passes any other failure on', async () => {
    const record = jest.fn(async () => undefined);
    await expect(
      recordLaterListeners(Promise.reject(new AttemptAbandoned()), record),
    ).resolves.toBeUndefined();
    await expect(recordLaterListeners(Promise.reject(new Error('lost')), record)).rejects.toThrow('lost');
    expect(record).not.toHaveBeenCalled();
  });
});
