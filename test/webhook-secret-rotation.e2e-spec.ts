import { verifyWebhook } from '@tps/delivery';
import { poll, Stack, WebhookReceiver, type ReceivedRequest, type SignedClient } from '@tps/testing';
import { amountOf, newBody, type Json } from './payment-helpers';
import { describeOnStores } from './stores';

const headersOf = (request: ReceivedRequest) => ({
  'webhook-id': request.headers['webhook-id'] as string,
  'webhook-timestamp': request.headers['webhook-timestamp'] as string,
  'webhook-signature': request.headers['webhook-signature'] as string,
});

/**
 * Webhook secret rotation with an overlap (contract, "Webhook secret rotation"): while the old
 * secret overlaps the new one every attempt carries both signatures; after it, the new one only.
 */
describeOnStores('webhook secret rotation', (store) => {
  let stack: Stack;
  let receiver: WebhookReceiver;
  let client: SignedClient;
  let serial: string;

  beforeAll(async () => {
    stack = await Stack.start({ store });
    receiver = await WebhookReceiver.start();
    const created = (await (
      await fetch(`${stack.apiUrl}/sandbox/accounts`, { method: 'POST' })
    ).json()) as Json;
    client = stack
      .client()
      .as({ merchantId: created.merchant_id as string, secret: created.secret_key as string });
    serial = (created.terminals as Json[])[0].serialNumber as string;
  });

  afterAll(async () => {
    await receiver?.close();
    await stack?.stop();
  });

  /** One async charge; resolves the webhook attempts it made, once all three events arrived. */
  async function webhooksOfCharge(): Promise<ReceivedRequest[]> {
    const body = newBody({ amount: amountOf(10000), events_webhook_url: receiver.url() });
    expect((await client.post(`/terminal/v1/${serial}/async/charge`, body)).status).toBe(200);
    const mine = () =>
      receiver.received.filter((r) => (r.body as Json).client_transaction_id === body.client_transaction_id);
    await poll(
      'the charge webhooks',
      async () => (new Set(mine().map((r) => (r.body as Json).event_id)).size === 3 ? true : undefined),
      10_000,
    );
    return mine();
  }

  it('signs with both secrets during the overlap, the new one first, then with the new one only', async () => {
    const old = (await client.post<{ secret: string }>('/sandbox/webhook-secret')).body.secret;
    const before = Date.now();
    const rotated = await client.post<Json>('/sandbox/webhook-secret/rotate', { overlap_seconds: 3 });
    expect(rotated.status).toBe(200);
    const { secret, previous_valid_until: until } = rotated.body as {
      secret: string;
      previous_valid_until: string;
    };
    expect(secret).toMatch(/^whsec_/);
    expect(secret).not.toBe(old);
    expect(Date.parse(until)).toBeGreaterThanOrEqual(before + 3000);
    expect(Date.parse(until)).toBeLessThanOrEqual(Date.now() + 3000);

    for (const request of await webhooksOfCharge()) {
      const signatures = headersOf(request)['webhook-signature'].split(' ');
      expect(signatures).toHaveLength(2);
      const now = Math.floor(request.at / 1000);
      expect(verifyWebhook(secret, headersOf(request), request.raw, now)).toBe(true);
      expect(verifyWebhook(old, headersOf(request), request.raw, now)).toBe(true);
      // The new secret's signature first, so a receiver that reads one takes the new one.
      expect(
        verifyWebhook(
          secret,
          { ...headersOf(request), 'webhook-signature': signatures[0] },
          request.raw,
          now,
        ),
      ).toBe(true);
    }

    await new Promise((resolve) => setTimeout(resolve, Math.max(0, Date.parse(until) - Date.now() + 50)));
    for (const request of await webhooksOfCharge()) {
      const now = Math.floor(request.at / 1000);
      expect(headersOf(request)['webhook-signature'].split(' ')).toHaveLength(1);
      expect(verifyWebhook(secret, headersOf(request), request.raw, now)).toBe(true);
      expect(verifyWebhook(old, headersOf(request), request.raw, now)).toBe(false);
    }
  });

  it('takes the default overlap of 24 hours without a body; replacing or removing the secret ends any overlap', async () => {
    const first = (await client.post<{ secret: string }>('/sandbox/webhook-secret')).body.secret;
    const rotated = await client.post<Json>('/sandbox/webhook-secret/rotate');
    expect(rotated.status).toBe(200);
    const until = Date.parse(rotated.body.previous_valid_until as string);
    expect(until - Date.now()).toBeGreaterThan(86_400_000 - 60_000);
    expect(until - Date.now()).toBeLessThanOrEqual(86_400_000);

    const replaced = (await client.post<{ secret: string }>('/sandbox/webhook-secret')).body.secret;
    for (const request of await webhooksOfCharge()) {
      const now = Math.floor(request.at / 1000);
      expect(verifyWebhook(replaced, headersOf(request), request.raw, now)).toBe(true);
      expect(verifyWebhook(first, headersOf(request), request.raw, now)).toBe(false);
      expect(verifyWebhook(rotated.body.secret as string, headersOf(request), request.raw, now)).toBe(false);
    }

    expect((await client.delete('/sandbox/webhook-secret')).status).toBe(204);
    const fresh = await client.post<Json>('/sandbox/webhook-secret/rotate', { overlap_seconds: 60 });
    // Nothing to keep: there was no secret.
    expect(fresh.body.previous_valid_until).toBeNull();
    const none = await client.post<Json>('/sandbox/webhook-secret/rotate', { overlap_seconds: 0 });
    expect(none.body.previous_valid_until).toBeNull();
  });

  it.each([
    [{ overlap_seconds: -1 }, 'PAR-002'],
    [{ overlap_seconds: 604_801 }, 'PAR-002'],
    [{ overlap_seconds: 1.5 }, 'PAR-002'],
    [{ overlap_seconds: '60' }, 'PAR-002'],
    [{ overlap: 60 }, 'PAR-001'],
  ])('refuses %j with %s', async (body, code) => {
    const answer = await client.post('/sandbox/webhook-secret/rotate', body);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ type: 'PARAMETER', code });
  });
});
