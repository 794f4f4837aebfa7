import { canonicalJson } from './canonical-json';

const canonical = (text: string): string => canonicalJson(JSON.parse(text));

describe('the canonical form of a JSON body', () => {
  it('ignores key order at every level, whitespace and number spelling', () => {
    const first =
      '{"amount":{"iva":1600,"subtotal_iva":10000},"client_transaction_id":"a","metadata":{"b":"2","a":"1"}}';
    const second = `{
      "client_transaction_id" : "a",
      "metadata": { "a": "1", "b": "2" },
      "amount": { "subtotal_iva": 1e4, "iva": 1600.0 }
    }`;
    expect(canonical(second)).toBe(canonical(first));
  });

  it('tells a different value apart, however small', () => {
    const base = canonical('{"amount":{"iva":1600},"tags":["a","b"]}');
    expect(canonical('{"amount":{"iva":1601},"tags":["a","b"]}')).not.toBe(base);
    expect(canonical('{"amount":{"iva":"1600"},"tags":["a","b"]}')).not.toBe(base);
    expect(canonical('{"amount":{"iva":1600},"tags":["b","a"]}')).not.toBe(base);
    expect(canonical('{"amount":{"iva":1600},"tags":["a","b"],"x":null}')).not.toBe(base);
  });

  it('keeps strings exact, escapes included', () => {
    expect(canonical('{"k":"a\\u0041\\n"}')).toBe('{"k":"aA\\n"}');
    expect(canonical('{"k":"a\\u0041\\n"}')).not.toBe(canonical('{"k":"aa\\n"}'));
  });

  it('writes scalars and an absent body', () => {
    expect(canonicalJson(null)).toBe('null');
    expect(canonicalJson(undefined)).toBe('null');
    expect(canonicalJson(true)).toBe('true');
    expect(canonicalJson([])).toBe('[]');
    expect(canonicalJson({})).toBe('{}');
  });
});
