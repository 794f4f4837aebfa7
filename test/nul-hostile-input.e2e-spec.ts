import { randomUUID } from 'node:crypto';
import { WebSocket } from 'ws';
import { LISTEN_PATH } from '@tps/contracts';
import { Stack, type SignedClient } from '@tps/testing';
import { describeOnStores } from './stores';

const AMOUNT = { iva: 16, subtotal_iva: 84, subtotal_iva0: 0 };
const NUL = '\u0000';

/**
 * U+0000 (NUL) anywhere a caller writes (contract §4): PostgreSQL's text cannot hold it, so a
 * `%00` in an id of the path, a `\u0000` in a body's string or a NUL in the merchant id of the
 * Authorization header was a 500 INT-001 there (with a stack trace in the log) where SQLite
 * answered 404 or even stored it. Both stores now refuse it alike, before anything looks it up.
 */
describeOnStores('U+0000 in a request', (store) => {
  let stack: Stack;
  let client: SignedClient;

  beforeAll(async () => {
    stack = await Stack.start({ store });
    client = stack.client();
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it.each([
    ['GET', '/terminal/v1/print/%00'],
    ['GET', '/sandbox/conformance-runs/x%00'],
    ['GET', '/sandbox/conformance-runs/%00/junit'],
    ['POST', '/terminal/v1/SIM0000001%00/sync/charge'],
    ['POST', '/sandbox/deliveries/%00/redeliver'],
  ])('refuses %s %s with 400 PAR-002', async (method, path) => {
    const answer =
      method === 'GET'
        ? await client.get(path)
        : await client.post(path, { client_transaction_id: randomUUID(), amount: AMOUNT });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ type: 'PARAMETER', code: 'PAR-002' });
  });

  it.each([
    [
      '/terminal/v1/sync/charge',
      'metadata.note',
      { client_transaction_id: randomUUID(), amount: AMOUNT, metadata: { note: `a${NUL}b` } },
    ],
    [
      '/terminal/v1/print',
      'commands[0].value',
      { commands: [{ type: 'text', value: `a${NUL}b` }], externalReference: 'x' },
    ],
    [
      '/terminal/v1/print',
      'externalReference',
      { commands: [{ type: 'cut' }], externalReference: `x${NUL}` },
    ],
    ['/sandbox/terminals', 'room', { room: `front${NUL}desk` }],
  ])('refuses POST %s with a \\u0000 escape in %s with 400 PAR-002 naming it', async (path, param, body) => {
    const answer = await client.post(path, body);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ type: 'PARAMETER', code: 'PAR-002', param });
  });

  it('refuses a merchant id holding NUL with 401 AUTH-001, on a route and on listen', async () => {
    const authorization = `Basic ${Buffer.from(`demo-merchant${NUL}:abc`).toString('base64')}`;
    const timestamp = String(Math.floor(Date.now() / 1000));
    const answer = await fetch(`${stack.apiUrl}/sandbox/terminals`, {
      headers: { authorization, timestamp },
    });
    expect(answer.status).toBe(401);
    expect(await answer.json()).toMatchObject({ type: 'AUTHENTICATION', code: 'AUTH-001' });

    const ws = new WebSocket(`${stack.apiUrl.replace(/^http/, 'ws')}${LISTEN_PATH}`, {
      headers: { authorization, timestamp },
    });
    const refused = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      ws.once('unexpected-response', (_request, response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      });
      ws.once('open', () => reject(new Error('listen opened for a merchant id holding NUL')));
      ws.once('error', () => undefined);
    });
    expect(refused.status).toBe(401);
    expect(JSON.parse(refused.body)).toMatchObject({ code: 'AUTH-001' });
  });

  it('logged no storage error and no 500', () => {
    expect(stack.api.text).not.toMatch(/invalid byte sequence|INT-001/);
  });
});
