import { TurnBatchedLines } from './turn-batched-lines';

function target(): { writes: string[]; write(text: string): void } {
  const writes: string[] = [];
  return { writes, write: (text) => void writes.push(text) };
}

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('TurnBatchedLines', () => {
  it('writes the lines of one turn together, at its end, in order', async () => {
    const out = target();
    const lines = new TurnBatchedLines(out);
    lines.write('a\n');
    lines.write('b\n');
    expect(out.writes).toEqual([]);
    await turn();
    lines.write('c\n');
    await turn();
    expect(out.writes).toEqual(['a\nb\n', 'c\n']);
  });

  it('writes at once past 64 KiB waiting, and whatever waits when flushed', () => {
    const out = target();
    const lines = new TurnBatchedLines(out);
    const long = `${'x'.repeat(40 * 1024)}\n`;
    lines.write(long);
    lines.write(long);
    expect(out.writes).toEqual([long + long]);
    lines.write('tail\n');
    lines.flush();
    lines.flush();
    expect(out.writes).toEqual([long + long, 'tail\n']);
  });
});
