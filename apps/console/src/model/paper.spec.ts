import { paperLines, wrap } from './paper';

describe('receipt paper', () => {
  it('wraps text at 32 columns at the last space, as the printer does', () => {
    expect(wrap('The quick brown fox jumps over the lazy dog again')).toEqual([
      'The quick brown fox jumps over',
      'the lazy dog again',
    ]);
    expect(wrap('x'.repeat(40))).toEqual(['x'.repeat(32), 'x'.repeat(8)]);
  });

  it('keeps bold and alignment, feeds blank lines, and draws codes as pictures', () => {
    expect(
      paperLines([
        { type: 'text', value: 'STORE', align: 'center', bold: true },
        { type: 'feed', lines: 2 },
        { type: 'qr', value: 'https://example.com' },
        { type: 'barcode', value: 'A-1' },
        { type: 'cut' },
      ]),
    ).toEqual([
      { kind: 'text', text: 'STORE', align: 'center', bold: true },
      { kind: 'text', text: '', align: 'left', bold: false },
      { kind: 'text', text: '', align: 'left', bold: false },
      { kind: 'qr', value: 'https://example.com' },
      { kind: 'barcode', value: 'A-1' },
      { kind: 'cut' },
    ]);
  });
});
