import { randomUUID } from 'node:crypto';
import { answerWith, Stack, WebhookReceiver } from '@tps/testing';
import type { Json } from './payment-helpers';

const CHARGE = '/terminal/v1/SIM0000002/async/charge';
const CAP = 2;

function charge(url: string, clientTransactionId = randomUUID()): Json {
  return {
    amount: { iva: 1600, subtotal_iva: 10000, subtotal_iva0: 0 },
    client_transaction_id: clientTransactionId,
    events_webhook_url: url,
  };
}

/**
 * Contract §22, hard caps per account: an account whose receiver keeps failing holds at most
 * CAP_PENDING_DELIVERIES deliveries; past it a new operation is refused (409 CAP-001) before
 * anything of it is recorded, and a repeat of a recorded one is answered as ever.
 */
describe('the cap on an account’s pending webhook deliveries', () => {
  let stack: Stack;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start(answerWith(500));
    stack = await Stack.start({ apiEnv: { CAP_PENDING_DELIVERIES: String(CAP) } });
  });

  afterAll(async () => {
    await stack?.stop();
    await receiver?.close();
  });

  it('refuses a new operation at the cap, names it, and answers a repeat as ever', async () => {
    const first = charge(receiver.url());
    const taken = await stack.client().post<Json>(CHARGE, first);
    expect(taken.status).toBe(200);
    // The charge's events wait, their receiver failing: at least the cap of them pending.
    const deadline = Date.now() + 15_000;
    for (;;) {
      const listed = await stack
        .client()
        .get<Json>(`/sandbox/deliveries?client_transaction_id=${first.client_transaction_id as string}`);
      const pending = (listed.body.items as Json[]).filter((item) => item.state === 'pending');
      if (pending.length >= CAP) break;
      if (Date.now() > deadline) throw new Error('the deliveries never became pending');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // Past the second the count is trusted for.
    await new Promise((resolve) => setTimeout(resolve, 1100));

    const next = charge(receiver.url());
    const refused = await stack.client().post<Json>(CHARGE, next);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ type: 'CAPACITY', code: 'CAP-001' });
    expect(refused.body.message).toContain(`pending_deliveries = ${CAP}`);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // Nothing of it was recorded: its id is still free.
    const unknown = await stack
      .client()
      .get<Json>(`/sandbox/deliveries?client_transaction_id=${next.client_transaction_id as string}`);
    expect([unknown.status, unknown.body.items]).toEqual([200, []]);

    const repeat = await stack.client().post<Json>(CHARGE, first);
    expect(repeat.status).toBe(200);
    expect(stack.api.text).toMatch(/refused at a cap: merchant demo-merchant has its pending_deliveries = 2/);
  });
});
