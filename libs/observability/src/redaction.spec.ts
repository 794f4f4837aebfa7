import { REDACTED, redactSensitive } from './redaction';

describe('redactSensitive', () => {
  it('censors sensitive keys at the top level and one object down, leaving the rest', () => {
    const fields = {
      msg: 'fields',
      secret_key: 'sk-1',
      headers: { authorization: 'Basic abc', 'webhook-signature': 'v1,xyz', accept: '*/*' },
      card: { pan: '4242424242424242', brand: 'visa' },
      status: 200,
    };
    expect(redactSensitive(fields)).toEqual({
      msg: 'fields',
      secret_key: REDACTED,
      headers: { authorization: REDACTED, 'webhook-signature': REDACTED, accept: '*/*' },
      card: { pan: REDACTED, brand: 'visa' },
      status: 200,
    });
    // The caller's objects are never changed.
    expect(fields.headers.authorization).toBe('Basic abc');
    expect(fields.card.pan).toBe('4242424242424242');
  });

  it('returns the same object when nothing is sensitive (no copy on the hot path)', () => {
    const fields = {
      request_id: 'r',
      route: '/x',
      nested: { status: 1 },
      list: [{ token: 't' }],
      none: null,
    };
    expect(redactSensitive(fields)).toBe(fields);
  });
});
