import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import { signRequest } from '@tps/contracts';
import { Stack } from '@tps/testing';

const valid = () => ({
  amount: { iva: 1600, subtotal_iva: 10000, subtotal_iva0: 0 },
  client_transaction_id: randomUUID(),
});

function expectErrorBody(body: unknown): void {
  expect(Object.keys(body as object).sort()).toEqual(expect.arrayContaining(['code', 'message', 'type']));
  for (const key of Object.keys(body as object))
    expect(['type', 'code', 'message', 'param', 'request_id']).toContain(key);
}

/** The first two groups are only asked and answered: they share one stack. */
describe('a stack with its terminals linked', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await Stack.start();
  });

  afterAll(async () => {
    await stack?.stop();
  });

  describe('contract errors on the async charge', () => {
    it('answers 404 NF-002 for a serial the merchant does not have', async () => {
      for (const serial of ['SIM9999999', 'SIM0000003']) {
        const response = await stack.client().post(`/terminal/v1/${serial}/async/charge`, valid());
        expect(response.status).toBe(404);
        expect(response.body).toMatchObject({ type: 'NOT_FOUND', code: 'NF-002' });
        expectErrorBody(response.body);
      }
    });

    it.each([
      [
        'a missing amount field',
        { ...valid(), amount: { iva: 1, subtotal_iva0: 0 } },
        'PAR-002',
        'amount.subtotal_iva',
      ],
      [
        'a negative amount',
        { ...valid(), amount: { iva: -1, subtotal_iva: 1, subtotal_iva0: 0 } },
        'PAR-002',
        'amount.iva',
      ],
      [
        'a decimal amount',
        { ...valid(), amount: { iva: 16.5, subtotal_iva: 1, subtotal_iva0: 0 } },
        'PAR-002',
        'amount.iva',
      ],
      [
        'a string amount',
        { ...valid(), amount: { iva: '16', subtotal_iva: 1, subtotal_iva0: 0 } },
        'PAR-002',
        'amount.iva',
      ],
      [
        'a zero total',
        { ...valid(), amount: { iva: 0, subtotal_iva: 0, subtotal_iva0: 0 } },
        'PAR-003',
        'amount',
      ],
      [
        'a client_transaction_id that is no UUID',
        { ...valid(), client_transaction_id: 'abc' },
        'PAR-002',
        'client_transaction_id',
      ],
      ['no amount at all', { client_transaction_id: randomUUID() }, 'PAR-002', 'amount'],
      [
        'an invalid webhook URL',
        { ...valid(), events_webhook_url: 'not a url' },
        'PAR-004',
        'events_webhook_url',
      ],
      [
        'an ftp webhook URL',
        { ...valid(), events_webhook_url: 'ftp://127.0.0.1/x' },
        'PAR-004',
        'events_webhook_url',
      ],
      ['an unknown field', { ...valid(), tip: 100 }, 'PAR-001', 'tip'],
      [
        'an unknown nested field',
        { ...valid(), amount: { iva: 1, subtotal_iva: 1, subtotal_iva0: 0, vat: 1 } },
        'PAR-001',
        'amount.vat',
      ],
      [
        'metadata that is not flat strings',
        { ...valid(), metadata: { nested: { a: 1 } } },
        'PAR-002',
        'metadata',
      ],
    ])('refuses %s with 400 %s and param', async (_what, body, code, param) => {
      const response = await stack.client().post('/terminal/v1/SIM0000002/async/charge', body);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ type: 'PARAMETER', code, param });
      expectErrorBody(response.body);
    });

    it('refuses webhookUrl on a charge, naming events_webhook_url', async () => {
      const response = await stack
        .client()
        .post('/terminal/v1/SIM0000002/async/charge', { ...valid(), webhookUrl: 'http://127.0.0.1:1/hook' });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 'PAR-001', param: 'webhookUrl' });
      expect(String(response.body.message)).toContain('events_webhook_url');
    });

    it('refuses events_webhook_url on POST /authorization without sending the caller to print jobs', async () => {
      const response = await stack
        .client()
        .post('/authorization', { ...valid(), events_webhook_url: 'http://127.0.0.1:1/hook' });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 'PAR-001', param: 'events_webhook_url' });
      expect(String(response.body.message)).not.toMatch(/print/i);
      expect(String(response.body.message)).toContain('/terminal/v1/async/authorization');
    });

    it('refuses malformed JSON with PAR-001', async () => {
      const response = await stack
        .client()
        .send('POST', '/terminal/v1/SIM0000002/async/charge', '{"amount":');
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ type: 'PARAMETER', code: 'PAR-001' });
    });

    it('answers an unknown route with NF-000 in the same shape', async () => {
      const response = await stack.client().post('/terminal/v1/SIM0000002/async/teleport', valid());
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({ type: 'NOT_FOUND', code: 'NF-000' });
      expectErrorBody(response.body);
    });
  });

  /**
   * Node hands every request with `Connection: Upgrade` to the upgrade handlers, whatever its
   * path: `curl --http2` asking for h2c on GET /health was answered a bare "401 Unauthorized",
   * with no body, as a link without its token; and a signed listen upgrade that was no WebSocket
   * handshake got ws's own text/html 400.
   */
  describe('an upgrade that is no WebSocket the service takes', () => {
    /** The raw answer to a request written as it is on a socket of its own. */
    function rawAnswer(request: string): Promise<string> {
      const port = Number(new URL(stack.apiUrl).port);
      return new Promise((resolve, reject) => {
        let answer = '';
        const socket = connect(port, '127.0.0.1', () => socket.write(request));
        socket.on('data', (chunk: Buffer) => (answer += chunk.toString('utf8')));
        socket.on('end', () => resolve(answer));
        socket.on('error', reject);
      });
    }

    it.each([
      [
        'GET',
        '/health',
        'Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQAAP__',
      ],
      [
        'GET',
        '/sandbox/terminals',
        'Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
      ],
    ])('answers %s %s with 400 PAR-001 in the contract body', async (method, path, headers) => {
      const answer = await rawAnswer(`${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers}\r\n\r\n`);
      const [head, body] = answer.split('\r\n\r\n');
      expect(head).toMatch(/^HTTP\/1\.1 400 /);
      expect(head).toMatch(/\r\nRequest-Id: \S+/i);
      const error = JSON.parse(body) as unknown;
      expect(error).toMatchObject({ type: 'PARAMETER', code: 'PAR-001' });
      expectErrorBody(error);
    });

    it('answers a signed listen upgrade that is no WebSocket handshake with 400 PAR-001', async () => {
      const signed = signRequest({
        merchantId: 'demo-merchant',
        secret: 'demo-secret-key',
        method: 'GET',
        path: '/sandbox/listen',
      });
      const answer = await rawAnswer(
        'GET /sandbox/listen HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n' +
          `Sec-WebSocket-Version: 8\r\nauthorization: ${signed.authorization}\r\ntimestamp: ${signed.timestamp}\r\n\r\n`,
      );
      const [head, body] = answer.split('\r\n\r\n');
      expect(head).toMatch(/^HTTP\/1\.1 400 /);
      const error = JSON.parse(body) as unknown;
      expect(error).toMatchObject({ type: 'PARAMETER', code: 'PAR-001' });
      expectErrorBody(error);
    });
  });

  describe('bodies that are not JSON', () => {
    const CHARGE = '/terminal/v1/SIM0000002/async/charge';

    /** Signed over the very bytes sent, so that only the content type can be wrong. */
    async function sendAs(contentType: string | undefined, body: string, path = CHARGE): Promise<Response> {
      const headers: Record<string, string> = {
        ...signRequest({
          merchantId: 'demo-merchant',
          secret: 'demo-secret-key',
          method: 'POST',
          path,
          body,
        }),
      };
      if (contentType !== undefined) headers['content-type'] = contentType;
      // A Buffer body, because fetch would add text/plain to a string body of its own accord.
      return fetch(`${stack.apiUrl}${path}`, { method: 'POST', headers, body: Buffer.from(body) });
    }

    it.each([
      ['no content type', undefined, JSON.stringify(valid())],
      ['text/plain', 'text/plain', JSON.stringify(valid())],
      ['text/plain with a charset', 'text/plain;charset=UTF-8', JSON.stringify(valid())],
      ['form-encoded', 'application/x-www-form-urlencoded', 'amount[iva]=1600&client_transaction_id=x'],
      ['a JSON-like vendor type', 'application/vnd.api+json', JSON.stringify(valid())],
    ])('answers a body sent with %s with 415 PAR-006', async (_what, contentType, body) => {
      const response = await sendAs(contentType, body);
      expect(response.status).toBe(415);
      const error = (await response.json()) as Record<string, unknown>;
      expect(error).toMatchObject({ type: 'PARAMETER', code: 'PAR-006' });
      expectErrorBody(error);
    });

    it('refuses a non-JSON body before authentication, as it does an oversized one', async () => {
      const response = await fetch(`${stack.apiUrl}${CHARGE}`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: JSON.stringify(valid()),
      });
      expect(response.status).toBe(415);
    });

    it.each(['application/json', 'application/json; charset=utf-8', 'Application/JSON;charset=UTF-8'])(
      'takes a body sent as %s',
      async (contentType) => {
        const response = await sendAs(contentType, JSON.stringify(valid()), '/terminal/v1/sync/charge');
        expect(response.status).toBe(200);
      },
    );

    it('refuses no request that has no body', async () => {
      const client = stack.client();
      expect((await client.get('/sandbox/clock')).status).toBe(200);
      // fetch sends `content-length: 0` and no content type on a bodiless POST.
      expect((await client.post('/sandbox/terminals/SIM0000002/online')).status).toBe(200);
      const withTypeButNoBody = await client.send('GET', '/sandbox/clock', undefined, {
        'content-type': 'text/plain',
      });
      expect(withTypeButNoBody.status).toBe(200);
    });
  });
});

describe('a terminal with no link', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await Stack.start({ withoutSimulator: true });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('answers a Cloud-form request at once with 503 TER-001, and keeps nothing of it', async () => {
    const body = valid();
    const response = await stack.client().post('/terminal/v1/SIM0000002/async/charge', body);
    expect(response.status).toBe(503);
    expect(response.body).toMatchObject({ type: 'TERMINAL', code: 'TER-001' });
    // The refused request left no idempotency record: the same id is free once the terminal is back.
    await stack.startSimulator();
    await stack.waitLinked(3);
    const retried = await stack.client().post('/terminal/v1/SIM0000002/async/charge', body);
    expect(retried.status).toBe(200);
  });
});
