import { randomUUID } from 'node:crypto';
import { poll, Stack, WebhookReceiver } from '@tps/testing';
import { describeOnStores } from './stores';

const ISO_UTC_MILLIS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
// A UUID's last group can be twelve decimal digits: strip UUIDs before looking for a card number.
const UUIDS_ANYWHERE = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const CARD_DATA_KEYS = ['pan', 'cardHolderName', 'card', 'franchise', 'cardData', 'bin', 'cardType'];

type Event = Record<string, any>;

function chargeBody(webhook: string | undefined) {
  return {
    amount: {
      iva: 1600,
      subtotal_iva: 10000,
      subtotal_iva0: 50,
      extra_taxes: { airport_tax: 0, iac: 0, ice: 0, travel_agency: 0 },
    },
    client_transaction_id: randomUUID(),
    metadata: { reference: 'order-1', device: 'pos-01' },
    ...(webhook === undefined ? {} : { events_webhook_url: webhook }),
  };
}

function collectKeys(value: unknown, keys: string[] = []): string[] {
  if (typeof value === 'object' && value !== null) {
    for (const [key, inner] of Object.entries(value)) {
      keys.push(key);
      collectKeys(inner, keys);
    }
  }
  return keys;
}

describeOnStores('async charge end to end', (store) => {
  let stack: Stack;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    stack = await Stack.start({ store });
    receiver = await WebhookReceiver.start();
  });

  afterAll(async () => {
    await receiver?.close();
    await stack?.stop();
  });

  it.each([
    ['Local', '/terminal/v1/async/charge', 'SIM0000001'],
    ['Cloud', '/terminal/v1/SIM0000002/async/charge', 'SIM0000002'],
  ])(
    '%s form: acknowledgement, then every later event in order to the webhook',
    async (_form, path, serial) => {
      const hookPath = `/hook/${randomUUID()}`;
      const body = chargeBody(receiver.url(hookPath));
      const response = await stack.client().post<Event>(path, body);

      expect(response.status).toBe(200);
      const ack = response.body;
      expect(ack.status).toBe('TERMINAL_ACKNOWLEDGED');
      expect(ack.previous_status).toBe('');
      expect(ack.client_transaction_id).toBe(body.client_transaction_id);

      await receiver.waitFor((all) => all.filter((r) => r.path === hookPath).length >= 3);
      const delivered = receiver.bodies<Event>(hookPath);
      const stream = [ack, ...delivered];

      expect(stream.map((e) => e.status)).toEqual([
        'TERMINAL_ACKNOWLEDGED',
        'CARD_PRESENTED',
        'APPROVAL_REQUESTED',
        'APPROVAL',
      ]);
      stream.forEach((event, i) => {
        expect(event.previous_status).toBe(i === 0 ? '' : stream[i - 1].status);
        expect(event.event_id).toMatch(UUID);
        expect(event.occurred_at).toMatch(ISO_UTC_MILLIS);
        expect(new Date(event.occurred_at).toISOString()).toBe(event.occurred_at);
        expect(event.merchant_id).toBe('demo-merchant');
        expect(event.client_transaction_id).toBe(body.client_transaction_id);
        expect(Object.keys(event).filter((k) => k !== k.toLowerCase())).toEqual([]);
        expect(event.terminal).toEqual({
          serialNumber: serial,
          model: expect.any(String),
          wifiMac: expect.stringMatching(/^([0-9A-F]{2}:){5}[0-9A-F]{2}$/i),
          room: expect.any(String),
        });
        expect(event.operation).toEqual({
          type: 'charge',
          amount: {
            iva: 16,
            subtotalIva: 100,
            subtotalIva0: 0.5,
            extraTaxes: { airportTax: 0, iac: 0, ice: 0, travelAgency: 0 },
          },
          clientTransactionId: body.client_transaction_id,
          eventsWebHook: body.events_webhook_url,
          metadata: { reference: 'order-1', device: 'pos-01' },
        });
        expect(collectKeys(event).filter((k) => CARD_DATA_KEYS.includes(k))).toEqual([]);
        expect(JSON.stringify(event).replace(UUIDS_ANYWHERE, '')).not.toMatch(/\d{12,19}/);
        expect(event).not.toHaveProperty('failure_reason');
      });
      expect(ack).not.toHaveProperty('interaction_attempt');
      expect(ack).not.toHaveProperty('reading_type');
      for (const event of delivered) {
        expect(event.interaction_attempt).toBe(1);
        expect(event.reading_type).toBe('CHIP');
      }
      expect(new Set(stream.map((e) => e.event_id)).size).toBe(stream.length);
      for (const request of receiver.received.filter((r) => r.path === hookPath)) {
        expect(request.headers['content-type']).toMatch(/^application\/json/);
      }
    },
  );

  it('runs a charge given no events_webhook_url, and notifies nobody', async () => {
    const before = receiver.received.length;
    const body = chargeBody(undefined);
    const response = await stack.client().post<Event>('/terminal/v1/SIM0000002/async/charge', body);
    expect(response.status).toBe(200);
    expect(response.body.operation.eventsWebHook).toBe('');
    // The transaction still runs to its end: the terminal, busy (TER-003) until then, accepts the next charge.
    const nextBody = chargeBody(receiver.url('/after'));
    const next = await poll(
      'the terminal to take the next charge',
      async () => {
        const answer = await stack.client().post<Event>('/terminal/v1/SIM0000002/async/charge', nextBody);
        return answer.status === 409 && answer.body.code === 'TER-003' ? undefined : answer;
      },
      10_000,
    );
    expect(next.status).toBe(200);
    await receiver.waitFor((all) =>
      all.some((r) => r.path === '/after' && (r.body as Event).status === 'APPROVAL'),
    );
    expect(receiver.received.slice(before).every((r) => r.path === '/after')).toBe(true);
  });

  it('answers a repeated request with the first acknowledgement, and another body under the same id with TRX-001', async () => {
    const body = chargeBody(undefined);
    const first = await stack.client().post<Event>('/terminal/v1/SIM0000002/async/charge', body);
    const again = await stack.client().post<Event>('/terminal/v1/SIM0000002/async/charge', body);
    expect(again.status).toBe(200);
    expect(again.body.event_id).toBe(first.body.event_id);
    const changed = await stack.client().post('/terminal/v1/SIM0000002/async/charge', {
      ...body,
      amount: { iva: 1, subtotal_iva: 1, subtotal_iva0: 0 },
    });
    expect(changed.status).toBe(409);
    expect(changed.body).toMatchObject({ type: 'TRANSACTION', code: 'TRX-001' });
  });
});
