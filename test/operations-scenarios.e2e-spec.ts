import { Stack, WebhookReceiver, type SignedClient } from '@tps/testing';
import { ensureDaytime, newBody, operate, operationPath, type Json } from './payment-helpers';

const DAY = 24 * 60 * 60;

/** An amount whose total ends in `ending`: the scenario of contract §10. */
function scenarioAmount(ending: string): Json {
  return { iva: 1600, subtotal_iva: 10000 + Number(ending), subtotal_iva0: 0 };
}

describe('operations under the amount scenarios of contract §10', () => {
  let stack: Stack;
  let client: SignedClient;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    stack = await Stack.start();
    client = stack.client();
    receiver = await WebhookReceiver.start();
    await ensureDaytime(client);
  });

  afterAll(async () => {
    await receiver?.close();
    await stack?.stop();
  });

  async function businessState(reference: string): Promise<string> {
    const answer = await client.post<Json>('/terminal/v1/sync/transaction_search_online', {
      transaction_reference: reference,
    });
    return answer.body.items[0].business_state;
  }

  it.each([
    ['cloud', 'charge', '91', 'TER-101'],
    ['local', 'authorization', '92', 'TER-102'],
    ['cloud', 'authorization', '96', 'TER-103'],
    ['local', 'charge', '94', 'TER-104'],
  ] as const)(
    '%s sync %s ending on the terminal (scenario %s) is 409 TERMINAL %s, and so is its repeat',
    async (form, type, ending, code) => {
      const body = newBody({ amount: scenarioAmount(ending) });
      const done = await operate(client, form, 'sync', type, body);
      expect(done.response.status).toBe(409);
      expect(done.response.body).toMatchObject({ type: 'TERMINAL', code });
      const again = await client.post<Json>(operationPath(form, 'sync', type), body);
      expect(again.status).toBe(409);
      // The same answer; only the request id is the repeat's own (it names the request, §4).
      expect(again.body).toEqual({ ...done.response.body, request_id: again.headers.get('request-id') });
    },
  );

  it('answers a sync decline with 200, approved false and its response code', async () => {
    const done = await operate(client, 'cloud', 'sync', 'charge', newBody({ amount: scenarioAmount('51') }));
    expect(done.response.status).toBe(200);
    expect(done.response.body).toMatchObject({
      approved: false,
      responseCode: '51',
      rawResponse: { transaction_status: 'DECLINED', message_fields: { F39: '51' } },
    });
    expect(done.reference).toBeNull();
  });

  it('expires a debit pre-authorization (scenario 07) after 7 days: TRX-004 after moving 8', async () => {
    const auth = await operate(
      client,
      'cloud',
      'sync',
      'authorization',
      newBody({ amount: scenarioAmount('07') }),
    );
    expect(auth.response.body.rawResponse.card_type).toBe('DEBIT');
    const reference = auth.reference as string;
    await client.post('/sandbox/clock', { advance_seconds: 6 * DAY });
    expect(await businessState(reference)).toBe('AUTHORIZED');
    await client.post('/sandbox/clock', { advance_seconds: 2 * DAY });
    expect(await businessState(reference)).toBe('EXPIRED');
    const capture = await operate(
      client,
      'cloud',
      'sync',
      'capture',
      newBody({ transaction_reference: reference }),
    );
    expect(capture.response.status).toBe(409);
    expect(capture.response.body).toMatchObject({ code: 'TRX-004' });
  });

  it.each([
    ['08', 'CONTACTLESS'],
    ['09', 'MAGNETIC_STRIPE'],
  ])(
    'a follow-up of a charge read by scenario %s passes CARD_PRESENTED as %s',
    async (ending, readingType) => {
      await ensureDaytime(client);
      const charge = await operate(
        client,
        'cloud',
        'sync',
        'charge',
        newBody({ amount: scenarioAmount(ending) }),
      );
      const reference = charge.reference as string;
      const hook = `/void/${reference}`;
      await operate(
        client,
        'cloud',
        'async',
        'void',
        newBody({ transaction_reference: reference, events_webhook_url: receiver.url(hook) }),
      );
      await receiver.waitFor((all) => all.filter((r) => r.path === hook).length >= 3);
      const [presented] = receiver.bodies<Json>(hook);
      expect(presented).toMatchObject({
        status: 'CARD_PRESENTED',
        reading_type: readingType,
        interaction_attempt: 1,
      });
      expect(await businessState(reference)).toBe('VOIDED');
    },
  );
});
