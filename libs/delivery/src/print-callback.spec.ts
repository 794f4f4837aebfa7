import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PrintWebhookPayload } from '@tps/contracts';
import { SANDBOX_DESTINATIONS } from './destination-policy';
import { printWebhookPayload, sendPrintCallback, type CallbackFetch } from './print-callback';
import { AttemptAbandoned } from './webhook-post';
import { newWebhookSecret, verifyWebhook } from './webhook-signature';

const URL_ = 'http://127.0.0.1:9/hook';
const PAYLOAD: PrintWebhookPayload = { printJobId: 'job-1', status: 'COMPLETED', externalReference: '' };

function clock(...readings: number[]): () => number {
  let i = 0;
  return () => readings[Math.min(i++, readings.length - 1)];
}

function answering(status: number) {
  const calls: Array<Parameters<CallbackFetch>> = [];
  const fetch: CallbackFetch = (url, init) => {
    calls.push([url, init]);
    return Promise.resolve({ status, body: null });
  };
  return { fetch, calls };
}

describe('sendPrintCallback', () => {
  it('POSTs the payload once as JSON, without following redirects', async () => {
    const { fetch, calls } = answering(204);
    const outcome = await sendPrintCallback(URL_, PAYLOAD, {
      timeoutMs: 15_000,
      fetch,
      now: clock(1000, 1042),
    });
    expect(calls).toHaveLength(1);
    const [url, init] = calls[0];
    expect(url).toBe(URL_);
    expect(init.method).toBe('POST');
    expect(init.redirect).toBe('manual');
    expect(init.headers).toEqual({ 'content-type': 'application/json' });
    expect(JSON.parse(init.body)).toEqual(PAYLOAD);
    expect(outcome).toEqual({
      attemptedAt: new Date(1000).toISOString(),
      statusCode: 204,
      error: null,
      latencyMs: 42,
    });
  });

  it.each([500, 503, 404, 302, 429])(
    'makes one attempt only when the receiver answers %i',
    async (status) => {
      const { fetch, calls } = answering(status);
      const outcome = await sendPrintCallback(URL_, PAYLOAD, { timeoutMs: 15_000, fetch });
      expect(calls).toHaveLength(1);
      expect(outcome.statusCode).toBe(status);
      expect(outcome.error).toBe(`HTTP ${status}`);
    },
  );

  it('ends the one attempt as a timeout when the timeout fires, and does not retry', async () => {
    const timer = new AbortController();
    const asked: number[] = [];
    let calls = 0;
    const fetch: CallbackFetch = (_url, init) => {
      calls += 1;
      return new Promise((_resolve, reject) =>
        init.signal.addEventListener('abort', () => reject(new DOMException('aborted', 'TimeoutError'))),
      );
    };
    const pending = sendPrintCallback(URL_, PAYLOAD, {
      timeoutMs: 15_000,
      fetch,
      now: clock(0, 15_000),
      timeoutSignal: (ms) => {
        asked.push(ms);
        return timer.signal;
      },
    });
    timer.abort();
    const outcome = await pending;
    expect(asked).toEqual([15_000]);
    expect(calls).toBe(1);
    expect(outcome).toMatchObject({ statusCode: null, error: 'timeout', latencyMs: 15_000 });
  });

  it('reports a connection failure by its code, once', async () => {
    let calls = 0;
    const fetch: CallbackFetch = () => {
      calls += 1;
      return Promise.reject(new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } }));
    };
    const outcome = await sendPrintCallback(URL_, PAYLOAD, { timeoutMs: 15_000, fetch });
    expect(calls).toBe(1);
    expect(outcome).toMatchObject({ statusCode: null, error: 'ECONNREFUSED' });
  });

  it('signs the callback with the Standard Webhooks headers when the merchant has a secret', async () => {
    const secret = newWebhookSecret();
    const { fetch, calls } = answering(200);
    await sendPrintCallback(URL_, PAYLOAD, {
      timeoutMs: 15_000,
      fetch,
      now: clock(1_700_000_000_900, 1_700_000_001_000),
      signingSecrets: [secret],
    });
    const { headers, body } = calls[0][1];
    expect(headers['content-type']).toBe('application/json');
    expect(headers['webhook-id']).toBe(PAYLOAD.printJobId);
    expect(headers['webhook-timestamp']).toBe('1700000000');
    expect(verifyWebhook(secret, headers, body, 1_700_000_000)).toBe(true);
    // The scheme itself, written out: v1, base64 HMAC-SHA256 of id.timestamp.body.
    const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
    const expected = createHmac('sha256', key).update(`job-1.1700000000.${body}`).digest('base64');
    expect(headers['webhook-signature']).toBe(`v1,${expected}`);
  });

  it('sends no signature headers when the merchant has no secret', async () => {
    const { fetch, calls } = answering(200);
    await sendPrintCallback(URL_, PAYLOAD, { timeoutMs: 15_000, fetch, signingSecrets: [] });
    expect(calls[0][1].headers).toEqual({ 'content-type': 'application/json' });
  });

  it('has no outcome when the service stops during the attempt, and makes none once stopped', async () => {
    const shutdown = new AbortController();
    let calls = 0;
    const fetch: CallbackFetch = (_url, init) => {
      calls += 1;
      return new Promise((_resolve, reject) =>
        init.signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
      );
    };
    const pending = sendPrintCallback(URL_, PAYLOAD, { timeoutMs: 15_000, fetch, shutdown: shutdown.signal });
    shutdown.abort();
    await expect(pending).rejects.toBeInstanceOf(AttemptAbandoned);
    await expect(
      sendPrintCallback(URL_, PAYLOAD, { timeoutMs: 15_000, fetch, shutdown: shutdown.signal }),
    ).rejects.toBeInstanceOf(AttemptAbandoned);
    expect(calls).toBe(1);
  });

  it('releases the answer body', async () => {
    const cancel = jest.fn(() => Promise.resolve());
    const fetch: CallbackFetch = () => Promise.resolve({ status: 200, body: { cancel } });
    await sendPrintCallback(URL_, PAYLOAD, { timeoutMs: 15_000, fetch });
    expect(cancel).toHaveBeenCalledTimes(1);
  });
});

describe('sendPrintCallback where the profile forbids private addresses', () => {
  const PUBLIC_ONLY = { requireHttps: false, allowPrivate: false, refuseOwnAddresses: false };
  let server: Server;
  let connections = 0;
  const url = (host: string) => `http://${host}:${(server.address() as AddressInfo).port}/print`;

  beforeAll(async () => {
    server = createServer((_request, response) => response.end());
    server.on('connection', () => (connections += 1));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  // A name is checked by its lookup, an address as written: neither opens a connection.
  it.each([['localhost'], ['127.0.0.1'], ['[::ffff:127.0.0.1]']])(
    'refuses %s when it connects, and reports destination_refused',
    async (host) => {
      const before = connections;
      const outcome = await sendPrintCallback(url(host), PAYLOAD, {
        timeoutMs: 2000,
        destinations: PUBLIC_ONLY,
      });
      expect(outcome).toMatchObject({ statusCode: null, error: 'destination_refused' });
      expect(connections).toBe(before);
    },
  );

  it('connects to the same receiver where private addresses are allowed', async () => {
    const outcome = await sendPrintCallback(url('localhost'), PAYLOAD, {
      timeoutMs: 2000,
      destinations: SANDBOX_DESTINATIONS,
    });
    expect(outcome).toMatchObject({ statusCode: 200, error: null });
  });
});

describe('printWebhookPayload', () => {
  it('has exactly the specification fields for a completed job', () => {
    const payload = printWebhookPayload({
      printJobId: 'j',
      status: 'COMPLETED',
      externalReference: '',
      errorCode: 'COVER_OPEN',
    });
    expect(payload).toEqual({ printJobId: 'j', status: 'COMPLETED', externalReference: '' });
  });

  it('carries errorCode and errorMessage for a failed job', () => {
    const payload = printWebhookPayload({
      printJobId: 'j',
      status: 'FAILED',
      externalReference: 'order-7',
      errorCode: 'COVER_OPEN',
      errorMessage: 'the printer cover is open',
    });
    expect(payload).toEqual({
      printJobId: 'j',
      status: 'FAILED',
      externalReference: 'order-7',
      errorCode: 'COVER_OPEN',
      errorMessage: 'the printer cover is open',
    });
  });
});
