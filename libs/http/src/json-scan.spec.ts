import { MAX_JSON_DEPTH, scanJson } from './json-scan';

const scan = (text: string) => scanJson(Buffer.from(text, 'utf8'));
const nested = (depth: number, open = '{"a":', close = '}') => open.repeat(depth) + '1' + close.repeat(depth);

describe('scanJson', () => {
  it.each([
    '',
    '{}',
    '[]',
    '{"client_transaction_id":"4f0c","amount":{"iva":1600,"subtotal_iva":10000,"subtotal_iva0":0}}',
    '{"a":[1,2,{"b":"c"}],"d":{"a":1},"e":[{"a":1},{"a":2}]}',
    '{"s":"quote \\" and backslash \\\\ and \\u00e9 and a pair \\ud83d\\udcb3"}',
    '{"\\u0061":1,"b":"a"}',
    '{"a":1e308,"b":-1.5E-300,"c":123456789012345678901234567890}',
    '{"émoji 💳":"ü","constructor_id":"x","proto":"__proto__"}',
    '["a","a"]',
  ])('takes %p', (text) => {
    expect(scan(text)).toBeUndefined();
  });

  it('takes objects and arrays nested exactly as deep as the limit', () => {
    expect(scan(nested(MAX_JSON_DEPTH))).toBeUndefined();
    expect(scan(nested(MAX_JSON_DEPTH, '[', ']'))).toBeUndefined();
  });

  it('refuses nesting deeper than the limit, objects or arrays, with PAR-001', () => {
    for (const body of [nested(MAX_JSON_DEPTH + 1), nested(5000), nested(5000, '[', ']'), '['.repeat(200)])
      expect(scan(body)).toEqual({
        code: 'PAR-001',
        message: 'request body is nested deeper than 64 levels',
      });
  });

  it.each([
    ['{"a":1,"a":2}', 'a'],
    ['{"amount":{"iva":1,"iva":1}}', 'amount.iva'],
    ['{"a":1,"\\u0061":2}', 'a'],
    ['{"s":"\\\\","k\\"q":1,"t":"\\"","k\\"q":2}', 'k"q'],
    ['{"commands":[{"type":"cut"},{"type":"text","type":"cut"}]}', 'commands[1].type'],
  ])('refuses the duplicate key in %p, naming %p', (text, param) => {
    expect(scan(text)).toEqual({ code: 'PAR-001', message: expect.stringMatching(/duplicate key/), param });
  });

  it.each([
    ['{"__proto__":{"x":1}}', '__proto__'],
    ['{"amount":{"constructor":{}}}', 'amount.constructor'],
    ['{"metadata":{"prototype":"x"}}', 'metadata.prototype'],
    ['{"a":[{"\\u005f_proto__":1}]}', 'a[0].__proto__'],
  ])('refuses the prototype key in %p as an unknown field %p', (text, param) => {
    expect(scan(text)).toEqual({ code: 'PAR-001', message: `unknown field ${param}`, param });
  });

  it.each([
    ['{"a":"\\ud800"}', 'a'],
    ['{"a":"x\\udc00y"}', 'a'],
    ['{"a":{"b":["ok","\\uD83D\\u0041"]}}', 'a.b[1]'],
    ['{"a":"\\ud83d"}', 'a'],
    ['{"\\ud800":1}', undefined],
  ])('refuses the lone surrogate in %p with PAR-002, naming %p', (text, param) => {
    expect(scan(text)).toEqual({
      code: 'PAR-002',
      message: expect.stringMatching(/lone UTF-16 surrogate/),
      param,
    });
  });

  it.each([
    ['{"metadata":{"k":"a\\u0000b"}}', 'metadata.k'],
    ['{"commands":[{"value":"\\u0000"}]}', 'commands[0].value'],
    ['{"\\u0000":1}', undefined],
  ])('refuses the NUL escape in %p with PAR-002, naming %p', (text, param) => {
    expect(scan(text)).toEqual({ code: 'PAR-002', message: expect.stringMatching(/U\+0000/), param });
  });

  it.each(['{"a":"\\\\u0000"}', '{"a":"\\u0001"}'])(
    'takes %p: a backslash then u0000, or another control escape',
    (text) => {
      expect(scan(text)).toBeUndefined();
    },
  );

  it.each([
    ['{"amount":{"iva":1e309}}', 'amount.iva'],
    ['{"a":-1E999}', 'a'],
  ])('refuses the number in %p beyond a double with PAR-002, naming %p', (text, param) => {
    expect(scan(text)).toEqual({ code: 'PAR-002', message: expect.stringMatching(/too large/), param });
  });

  it('refuses integers of 400 and 310 digits with PAR-002', () => {
    expect(scan(`{"tip":${'9'.repeat(400)}}`)).toMatchObject({ code: 'PAR-002', param: 'tip' });
    expect(scan(`[1,${'1'.repeat(310)}]`)).toMatchObject({ code: 'PAR-002', param: '[1]' });
  });

  it.each([
    '{',
    '{"a":',
    '{"a":1e}',
    '{"a":1e5e5}',
    '{"a":"unterminated',
    '}}]]',
    '{"a" 1 "a" 2}',
    '{"\\u12":1,"\\u12":1}',
    'nonsense',
  ])('leaves malformed %p to JSON.parse', (text) => {
    expect(scan(text)).toBeUndefined();
  });

  it('reads a body a thousand keys wide without refusing it', () => {
    const wide = `{${Array.from({ length: 1000 }, (_, i) => `"k${i}":${i}`).join(',')}}`;
    expect(scan(wide)).toBeUndefined();
  });
});
