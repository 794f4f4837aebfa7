import { firstNullPath } from './null-fields';

describe('firstNullPath', () => {
  it.each([
    [{ a: 1, b: 'x', c: [1, { d: true }] }, undefined],
    [{ amount: null }, 'amount'],
    [{ amount: { iva: 1, extra_taxes: { iac: null } } }, 'amount.extra_taxes.iac'],
    [{ commands: [{ type: 'cut' }, null] }, 'commands[1]'],
    [{ a: { b: null }, c: null }, 'a.b'],
    [null, undefined],
    ['text', undefined],
  ])('in %p is %p', (body, path) => {
    expect(firstNullPath(body)).toBe(path);
  });
});
