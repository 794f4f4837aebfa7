import { Webhook } from 'standardwebhooks';
import { newWebhookSecret, signWebhook } from '@tps/delivery';
import { verifyWebhook, WebhookVerificationError } from './webhooks';

const NOW = new Date('2026-11-29T10:00:00Z');
const SECONDS = Math.floor(NOW.getTime() / 1000);
const EVENT = '{"event_id":"evt_1","status":"APPROVAL","client_transaction_id":"c1"}';

describe('verifyWebhook (Standard Webhooks, as the service signs)', () => {
  const secret = newWebhookSecret();

  it('returns the body of a delivery the service signed, checked as the reference library checks it', () => {
    // The reference library reads the real clock: this delivery is signed now.
    const now = new Date();
    const headers = signWebhook(secret, 'evt_1', Math.floor(now.getTime() / 1000), EVENT);
    expect(verifyWebhook(secret, EVENT, headers, now)).toEqual(JSON.parse(EVENT));
    expect(new Webhook(secret).verify(EVENT, { ...headers })).toEqual(JSON.parse(EVENT));
  });

  it('takes raw bytes and fetch Headers, and a print callback keyed by its printJobId', () => {
    const callback = '{"printJobId":"job-1","status":"COMPLETED"}';
    const headers = new Headers({ ...signWebhook(secret, 'job-1', SECONDS, callback) });
    expect(verifyWebhook(secret, Buffer.from(callback), headers, NOW)).toEqual(JSON.parse(callback));
  });

  it('passes with either secret while a rotated one overlaps the new one', () => {
    const next = newWebhookSecret();
    const headers = signWebhook([next, secret], 'evt_1', SECONDS, EVENT);
    expect(verifyWebhook(secret, EVENT, headers, NOW)).toEqual(JSON.parse(EVENT));
    expect(verifyWebhook(next, EVENT, headers, NOW)).toEqual(JSON.parse(EVENT));
  });

  it('refuses another secret, a changed body, an old or future timestamp, and missing headers', () => {
    const headers = signWebhook(secret, 'evt_1', SECONDS, EVENT);
    const refused = (run: () => unknown): string => {
      try {
        run();
        return 'accepted';
      } catch (error) {
        return error instanceof WebhookVerificationError ? error.message : String(error);
      }
    };
    expect(refused(() => verifyWebhook(newWebhookSecret(), EVENT, headers, NOW))).toBe(
      'no webhook-signature matches',
    );
    expect(refused(() => verifyWebhook(secret, EVENT.replace('c1', 'c2'), headers, NOW))).toBe(
      'no webhook-signature matches',
    );
    expect(refused(() => verifyWebhook(secret, EVENT, headers, new Date(NOW.getTime() + 301_000)))).toBe(
      'webhook-timestamp is too old or too new',
    );
    expect(refused(() => verifyWebhook(secret, EVENT, headers, new Date(NOW.getTime() - 301_000)))).toBe(
      'webhook-timestamp is too old or too new',
    );
    expect(refused(() => verifyWebhook(secret, EVENT, { ...headers, 'webhook-signature': '' }, NOW))).toBe(
      'missing webhook-signature header',
    );
  });
});
