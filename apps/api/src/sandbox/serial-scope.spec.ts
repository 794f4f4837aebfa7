import { serialOutOfScope, serialPrefixOf } from './serial-scope';

/** Contract §11's serial rule: 1 to 32 letters, digits, "-" or "_". */
const SERIAL_PATTERN = /^[A-Za-z0-9_-]{1,32}$/;

describe('serials an account chooses in a hosted sandbox', () => {
  it('begin with a prefix of its own that leaves room for a name of 19 characters', () => {
    const prefix = serialPrefixOf('acct_0123456789abcdef01234567');
    expect(prefix).toMatch(/^[0-9a-f]{12}-$/);
    expect(`${prefix}${'L'.repeat(19)}`).toMatch(SERIAL_PATTERN);
    expect(serialPrefixOf('acct_0123456789abcdef01234567')).toBe(prefix);
    expect(serialPrefixOf('acct_0123456789abcdef01234568')).not.toBe(prefix);
  });

  it('are refused outside that prefix, with one message whatever the serial', () => {
    const merchant = 'acct_0123456789abcdef01234567';
    expect(serialOutOfScope(merchant, `${serialPrefixOf(merchant)}LANE1`)).toBeUndefined();
    const refusal = serialOutOfScope(merchant, 'SIM0000001');
    expect(refusal).toContain(serialPrefixOf(merchant));
    expect(serialOutOfScope(merchant, 'SIM9999999')).toBe(refusal);
  });
});
