import { randomUUID } from 'node:crypto';
import { poll, scenarioBody, Stack } from '@tps/testing';
import { recorded, searchPath, type Json } from './payment-helpers';
import { unwritableApiStorage } from './storage-faults';
import { describeOnStores } from './stores';

const CHARGE = '/terminal/v1/SIM0000002/sync/charge';

/**
 * Contract §13 "What each failure means to a caller": a retry decides from the answer alone, and a
 * repeat is judged on the parsed request, not its bytes (§5 Idempotency).
 */
describeOnStores('answers a caller can act on', (store) => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await Stack.start({ store });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('a repeat with its keys in another order, other whitespace and number spelling answers the first; another value is TRX-001', async () => {
    const id = randomUUID();
    const first = `{"amount":{"iva":1600,"subtotal_iva":10000,"subtotal_iva0":0},"client_transaction_id":"${id}","metadata":{"a":"1","b":"2"}}`;
    const answered = await stack.client().send<Json>('POST', CHARGE, first);
    expect(answered.status).toBe(200);

    const reserialized = `{
      "metadata": { "b": "2", "a": "1" },
      "client_transaction_id": "${id}",
      "amount": { "subtotal_iva0": 0, "subtotal_iva": 1.0e4, "iva": 1600.0 }
    }`;
    const repeat = await stack.client().send<Json>('POST', CHARGE, reserialized);
    expect(repeat.status).toBe(200);
    expect(repeat.body.rawResponse.transaction_reference).toBe(
      answered.body.rawResponse.transaction_reference,
    );

    const otherValue = first.replace('"b":"2"', '"b":"3"');
    const refused = await stack.client().send<Json>('POST', CHARGE, otherValue);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      type: 'TRANSACTION',
      code: 'TRX-001',
      param: 'client_transaction_id',
    });
  });

  it('a charge the terminal approved while the service could not store it is 504 INT-003, and its retry answers the approval', async () => {
    // Scenario 97: the terminal waits for the cardholder, so storage can fail between the record
    // and the terminal's answer.
    const body = scenarioBody('97');
    const id = body.client_transaction_id;
    const pending = stack.client().post<Json>(CHARGE, body);
    await recorded(stack, id, 10_000);
    const storage = await unwritableApiStorage(stack, 'read-only');
    let answer: Awaited<typeof pending>;
    try {
      await poll(
        'the terminal to take the card',
        async () => {
          const card = await stack
            .client()
            .post<Json>('/sandbox/terminals/SIM0000002/card', { action: 'present', reading_type: 'CHIP' });
          return card.status === 200 ? card : undefined;
        },
        10_000,
      );
      answer = await pending;
    } finally {
      await storage.restore();
    }
    expect({ status: answer.status, body: answer.body }).toEqual({
      status: 504,
      body: expect.objectContaining({ type: 'INTERNAL', code: 'INT-003' }),
    });
    expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);

    const retried = await poll(
      'the retry to answer the outcome',
      async () => {
        const response = await stack.client().post<Json>(CHARGE, body);
        return response.status === 200 ? response : undefined;
      },
      20_000,
    );
    expect(retried.body.approved).toBe(true);
    // The terminal ran it once: the retry answered what it had done, and charged nothing again.
    const local = await stack
      .client()
      .post<Json>(searchPath('cloud', 'local'), { client_transaction_id: id });
    expect(local.body.items.map((item: Json) => [item.status, item.transaction_reference])).toEqual([
      ['APPROVAL', retried.body.rawResponse.transaction_reference],
    ]);
  });
});
