import { newWebhookSecret, signWebhook, verifyWebhook } from './webhook-signature';

describe('Standard Webhooks signing', () => {
  // The test vector published with the Standard Webhooks specification's reference libraries.
  const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
  const id = 'msg_p5jXN8AQM9LWM0D4loKWxJek';
  const timestamp = 1614265330;
  const body = '{"test": 2432232314}';

  it('signs as the Standard Webhooks reference does', () => {
    expect(signWebhook(secret, id, timestamp, body)).toEqual({
      'webhook-id': id,
      'webhook-timestamp': '1614265330',
      'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    });
  });

  it('verifies its own signature, and refuses another body, id, secret or a stale timestamp', () => {
    const headers = signWebhook(secret, id, timestamp, body);
    expect(verifyWebhook(secret, headers, body, timestamp + 10)).toBe(true);
    expect(verifyWebhook(secret, headers, `${body} `, timestamp)).toBe(false);
    expect(verifyWebhook(secret, { ...headers, 'webhook-id': 'msg_other' }, body, timestamp)).toBe(false);
    expect(verifyWebhook(newWebhookSecret(), headers, body, timestamp)).toBe(false);
    expect(verifyWebhook(secret, headers, body, timestamp + 301)).toBe(false);
    expect(verifyWebhook(secret, { 'webhook-id': id }, body, timestamp)).toBe(false);
  });

  it('accepts any one of several space-separated signatures (a secret being rotated)', () => {
    const headers = signWebhook(secret, id, timestamp, body);
    const both = { ...headers, 'webhook-signature': `v1,bm90IGl0 ${headers['webhook-signature']}` };
    expect(verifyWebhook(secret, both, body, timestamp)).toBe(true);
  });

  it('signs with each secret in force, newest first, so that either one verifies', () => {
    const rotated = newWebhookSecret();
    const headers = signWebhook([rotated, secret], id, timestamp, body);
    expect(headers['webhook-signature']).toBe(
      `${signWebhook(rotated, id, timestamp, body)['webhook-signature']} v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=`,
    );
    expect(verifyWebhook(rotated, headers, body, timestamp)).toBe(true);
    expect(verifyWebhook(secret, headers, body, timestamp)).toBe(true);
    expect(verifyWebhook(newWebhookSecret(), headers, body, timestamp)).toBe(false);
  });

  it('makes whsec_ secrets of 32 random bytes', () => {
    const made = newWebhookSecret();
    expect(made).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(made.slice(6), 'base64')).toHaveLength(32);
    expect(newWebhookSecret()).not.toBe(made);
  });
});
