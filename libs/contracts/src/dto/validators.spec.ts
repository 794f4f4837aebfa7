import fc from 'fast-check';
import { isUUID } from 'class-validator';
import { UUID_PATTERN, WEBHOOK_URL_PATTERN } from './limits';
import { isFlatStringMap, isWebhookUrl } from './validators';

describe('the patterns the document states are what the validators take', () => {
  it('UUID_PATTERN takes a string exactly when IsUUID() does', () => {
    const pattern = new RegExp(UUID_PATTERN);
    const hex = fc.constantFrom(...'0123456789abcdefABCDEF');
    const group = (length: number) => fc.string({ unit: hex, minLength: length, maxLength: length });
    const shaped = fc
      .tuple(group(8), group(4), group(4), group(4), group(12))
      .map((parts) => parts.join('-'));
    const candidates = fc.oneof(
      fc.uuid(),
      shaped,
      fc.constantFrom('00000000-0000-0000-0000-000000000000', 'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF', ''),
      fc.string(),
    );
    fc.assert(fc.property(candidates, (value) => pattern.test(value) === isUUID(value)));
  });

  it('takes a webhook URL only when it is an http(s) RFC 3986 URI of at most 2,048 characters', () => {
    for (const url of ['http://127.0.0.1:4000/hook', 'HTTPS://pos.example/x?y=1#z', 'http://a/%C3%BC'])
      expect([url, isWebhookUrl(url)]).toEqual([url, true]);
    for (const url of [
      'ftp://127.0.0.1/hook',
      'http://127.0.0.1/a b',
      'http://ü.example/',
      'http://a/%zz',
      '/relative',
      `http://a/${'x'.repeat(2048)}`,
    ]) {
      expect([url, isWebhookUrl(url)]).toEqual([url, false]);
    }
    expect(new RegExp(WEBHOOK_URL_PATTERN).test('http://127.0.0.1/')).toBe(true);
  });

  it('takes metadata of at most 20 string values, keys of 1 to 40 characters, values up to 255', () => {
    expect(isFlatStringMap({ reference: 'order-1234' })).toBe(true);
    expect(isFlatStringMap(Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, 'v'])))).toBe(
      false,
    );
    expect(isFlatStringMap({ ['k'.repeat(41)]: 'v' })).toBe(false);
    expect(isFlatStringMap({ '': 'v' })).toBe(false);
    expect(isFlatStringMap({ key: 'v'.repeat(256) })).toBe(false);
  });
});
