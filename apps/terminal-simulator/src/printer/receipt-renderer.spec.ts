import type { PrintCommand } from '@tps/contracts';
import { RECEIPT_COLUMNS, wrap } from '@tps/domain';
import { renderReceipt } from './receipt-renderer';

describe('renderReceipt', () => {
  it('aligns text left, center and right in 32 columns', () => {
    const out = renderReceipt([
      { type: 'text', value: 'left' },
      { type: 'text', value: 'center', align: 'center', bold: true },
      { type: 'text', value: 'right', align: 'right' },
    ]).split('\n');
    expect(out).toEqual(['left', `${' '.repeat(13)}center`, `${' '.repeat(27)}right`]);
  });

  it('wraps long text at words and cuts a word longer than a line', () => {
    const long = 'The quick brown fox jumps over the lazy dog again and again';
    const out = renderReceipt([
      { type: 'text', value: long },
      { type: 'text', value: 'x'.repeat(40) },
    ]).split('\n');
    expect(out).toEqual([
      'The quick brown fox jumps over',
      'the lazy dog again and again',
      'x'.repeat(32),
      'x'.repeat(8),
    ]);
  });

  it('keeps every line within the paper, whatever the commands', () => {
    const commands: PrintCommand[] = [
      { type: 'text', value: 'a\tb\r\nc\u0007d '.repeat(30), align: 'right' },
      { type: 'qr', value: 'https://example.com/'.repeat(10) },
      { type: 'barcode', value: '1234567890' },
      { type: 'feed', lines: 2 },
      { type: 'cut' },
    ];
    for (const line of renderReceipt(commands).split('\n')) {
      expect(line.length).toBeLessThanOrEqual(RECEIPT_COLUMNS);
      expect(line).toBe(line.trimEnd());
      // eslint-disable-next-line no-control-regex
      expect(line).not.toMatch(/[\u0000-\u001F]/);
    }
  });

  it('feeds blank lines and marks the cut', () => {
    const out = renderReceipt([{ type: 'text', value: 'a' }, { type: 'feed', lines: 2 }, { type: 'cut' }]);
    expect(out.split('\n')).toEqual(['a', '', '', '------------- cut --------------']);
  });

  it('shows what a code holds beneath it', () => {
    const out = renderReceipt([
      { type: 'qr', value: 'PAY-42' },
      { type: 'barcode', value: '7501' },
    ]);
    expect(out).toContain('[QR]');
    expect(out).toContain('PAY-42');
    expect(out).toMatch(/^\|\|[| ]+\|\|$/m);
    expect(out).toContain('7501');
  });

  it('keeps the spacing inside a line that fits', () => {
    expect(renderReceipt([{ type: 'text', value: 'IVA                      $16.00' }])).toBe(
      'IVA                      $16.00',
    );
  });

  it('prints an empty text as an empty line', () => {
    expect(wrap('')).toEqual(['']);
    expect(
      renderReceipt([
        { type: 'text', value: '' },
        { type: 'text', value: 'b' },
      ]),
    ).toBe('\nb');
  });
});
