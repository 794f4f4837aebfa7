import { randomUUID } from 'node:crypto';
import { poll, Stack } from '@tps/testing';
import { amountOf, newBody, type Json } from './payment-helpers';

/**
 * Contract §4: bad input is a 4xx on every route, signed or not, and a 4xx leaves no stack
 * trace in the log. Two findings: a body nested 5,000 deep overflowed the stack of the
 * transformation (500 INT-001, a stack trace per request), and `amount: null` on refund and
 * capture slipped past validation into the controller (500 INT-001, its repeat too).
 */
const STACK_FRAME = /\n\s+at \S.*:\d+:\d+/;

function nested(depth: number): string {
  return '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
}

describe('hostile bodies are 400, with no stack trace in the log', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await Stack.start();
  });

  afterAll(async () => {
    await stack?.stop();
  });

  /**
   * A stack trace is written before its answer is sent; a charge's outcome line, written after
   * every answer below, marks the point up to which the log has been read.
   */
  async function logAfterAnswers(): Promise<string> {
    const outcomes = (log: string): number => log.split(' charge ').length;
    const before = outcomes(stack.api.text);
    const marker = await stack.client().post('/terminal/v1/sync/charge', newBody({ amount: amountOf(1000) }));
    expect(marker.status).toBe(200);
    return poll(
      'the marker charge in the log',
      async () => {
        const log = stack.api.text;
        return outcomes(log) > before ? log : undefined;
      },
      10_000,
    );
  }

  it('refuses a body nested 5,000 deep with 400 PAR-001, unsigned and signed, and logs no stack', async () => {
    const logStart = stack.api.text.length;
    const body = nested(5000);

    const unsigned = await fetch(`${stack.apiUrl}/sandbox/accounts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
      signal: AbortSignal.timeout(10_000),
    });
    expect(unsigned.status).toBe(400);
    expect(await unsigned.json()).toMatchObject({ type: 'PARAMETER', code: 'PAR-001' });

    for (const path of ['/terminal/v1/sync/charge', '/terminal/v1/SIM0000002/async/charge']) {
      const signed = await stack.client().send<Json>('POST', path, body);
      expect({ path, status: signed.status, code: signed.body.code }).toEqual({
        path,
        status: 400,
        code: 'PAR-001',
      });
      expect(signed.body.message).toMatch(/nested deeper than 64/);
    }

    const log = (await logAfterAnswers()).slice(logStart);
    expect(log).not.toMatch(STACK_FRAME);
    expect(log).not.toMatch(/RangeError|INT-001/);
  });

  it("refuses the same bodies on the simulator's HTTP port, with the same parser", async () => {
    const simulator = stack.simulator?.url ?? '';
    for (const [body, code] of [
      [nested(5000), 'PAR-001'],
      ['{"a":1,"a":2}', 'PAR-001'],
      ['{"a":"\\udc00"}', 'PAR-002'],
    ]) {
      const answer = await fetch(`${simulator}/health`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
        signal: AbortSignal.timeout(10_000),
      });
      expect({ status: answer.status, body: (await answer.json()) as Json }).toEqual({
        status: 400,
        body: expect.objectContaining({ type: 'PARAMETER', code }),
      });
    }
    expect(stack.simulator?.text).not.toMatch(STACK_FRAME);
  });

  it.each([
    ['sync refund', '/terminal/v1/sync/refund'],
    ['sync capture', '/terminal/v1/sync/capture'],
    ['async capture', '/terminal/v1/async/capture'],
    ['cloud async capture', '/terminal/v1/SIM0000002/async/capture'],
  ])(
    'refuses amount null on %s with 400 PAR-002 param amount, and its same-id repeat too',
    async (_name, path) => {
      const logStart = stack.api.text.length;
      const body = newBody({ transaction_reference: randomUUID(), amount: null });
      for (const attempt of ['first', 'repeat']) {
        const answer = await stack.client().post<Json>(path, body);
        expect({ attempt, status: answer.status, body: answer.body }).toEqual({
          attempt,
          status: 400,
          body: {
            type: 'PARAMETER',
            code: 'PAR-002',
            message: expect.stringMatching(/amount/),
            param: 'amount',
            request_id: answer.headers.get('request-id'),
          },
        });
      }
      const log = (await logAfterAnswers()).slice(logStart);
      expect(log).not.toMatch(STACK_FRAME);
      expect(log).not.toMatch(/TypeError|INT-001/);
    },
  );

  it('refuses anything in the body of a route that takes none, and does nothing; none or {} is taken', async () => {
    const made = await fetch(`${stack.apiUrl}/sandbox/accounts`, { method: 'POST' });
    expect(made.status).toBe(201);
    const account = (await made.json()) as { merchant_id: string; secret_key: string; terminals: Json[] };
    const client = stack.client().as({ merchantId: account.merchant_id, secret: account.secret_key });
    const serial = String(account.terminals[0].serialNumber);
    expect((await client.post<Json>('/sandbox/clock', { advance_seconds: 3600 })).status).toBe(200);

    for (const [method, path, body, code, param] of [
      ['POST', '/sandbox/reset', '{"keep_terminals":true}', 'PAR-001', 'keep_terminals'],
      ['POST', '/sandbox/reset', '[]', 'PAR-002', 'body'],
      ['POST', '/sandbox/webhook-secret', '{"secret":"whsec_mine"}', 'PAR-001', 'secret'],
      ['DELETE', '/sandbox/webhook-secret', '{"all":true}', 'PAR-001', 'all'],
      ['POST', `/sandbox/terminals/${serial}/offline`, '{"minutes":5}', 'PAR-001', 'minutes'],
      ['POST', `/sandbox/deliveries/${randomUUID()}/redeliver`, '{"url":"http://x"}', 'PAR-001', 'url'],
      ['DELETE', '/sandbox/accounts/me', '{"keep_data":true}', 'PAR-001', 'keep_data'],
    ]) {
      const answer = await client.send<Json>(method, path, body);
      expect({ path, body, status: answer.status, code: answer.body.code, param: answer.body.param }).toEqual(
        {
          path,
          body,
          status: 400,
          code,
          param,
        },
      );
    }
    // Nothing was done: the clock still runs an hour ahead, the terminal is linked, the account is there.
    expect((await client.get<Json>('/sandbox/clock')).body.offset_seconds).toBeGreaterThanOrEqual(3600);
    const fleet = await client.get<Json[]>('/sandbox/terminals');
    expect(fleet.body.find((terminal) => terminal.serialNumber === serial)?.link).toBe('up');

    const reset = await client.send<Json>('POST', '/sandbox/reset', '{}');
    expect(reset.status).toBe(200);
    expect((await client.get<Json>('/sandbox/clock')).body.offset_seconds).toBe(0);
    expect((await client.post<Json>(`/sandbox/terminals/${serial}/offline`)).status).toBe(200);
  });
});
