import { FairLines } from './fair-lines';

interface Item {
  id: string;
  at: number;
}

function linesOf(share: number, stale = new Set<string>()) {
  return new FairLines<Item>({ share, dueAt: (item) => item.at, isCurrent: (item) => !stale.has(item.id) });
}

/** Takes until nothing may start; the ids in the order they were handed out. */
function drain(lines: FairLines<Item>): string[] {
  const taken: string[] = [];
  for (let next = lines.take(); next !== undefined; next = lines.take()) taken.push(next.item.id);
  return taken;
}

describe('fair lines', () => {
  it('never has more than the share of one destination in flight', () => {
    const lines = linesOf(2);
    for (let i = 0; i < 5; i += 1) lines.add('a', { id: `a${i}`, at: i });
    expect(drain(lines)).toEqual(['a0', 'a1']);
    expect(lines.inFlightTo('a')).toBe(2);
    lines.ended('a');
    expect(drain(lines)).toEqual(['a2']);
  });

  it('hands out each line earliest due first, whatever the order it came in', () => {
    const lines = linesOf(8);
    lines.add('a', { id: 'late', at: 30 });
    lines.add('a', { id: 'early', at: 10 });
    lines.add('a', { id: 'middle', at: 20 });
    expect(drain(lines)).toEqual(['early', 'middle', 'late']);
  });

  it('takes in turn from destinations with as many in flight', () => {
    const lines = linesOf(8);
    for (let i = 0; i < 2; i += 1) {
      lines.add('a', { id: `a${i}`, at: i });
      lines.add('b', { id: `b${i}`, at: i });
      lines.add('c', { id: `c${i}`, at: i });
    }
    expect(drain(lines)).toEqual(['a0', 'b0', 'c0', 'a1', 'b1', 'c1']);
  });

  it('keeps the turns across many destinations', () => {
    const lines = linesOf(8);
    const destinations = Array.from({ length: 300 }, (_, i) => `d${i}`);
    for (const d of destinations) lines.add(d, { id: `${d}-first`, at: 0 });
    for (const d of destinations) lines.add(d, { id: `${d}-second`, at: 1 });
    expect(drain(lines)).toEqual([
      ...destinations.map((d) => `${d}-first`),
      ...destinations.map((d) => `${d}-second`),
    ]);
  });

  it('gives the next slot to the destination with the fewest in flight, even if due later', () => {
    const lines = linesOf(4);
    for (let i = 0; i < 10; i += 1) lines.add('hangs', { id: `h${i}`, at: i });
    expect(drain(lines)).toEqual(['h0', 'h1', 'h2', 'h3']);
    lines.ended('hangs');
    lines.add('healthy', { id: 'o1', at: 100 });
    expect(lines.take()?.item.id).toBe('o1');
    expect(lines.take()?.item.id).toBe('h4');
  });

  it('keeps a waiting destination its place when more comes due for it', () => {
    const lines = linesOf(1);
    lines.add('busy', { id: 'x0', at: 0 });
    lines.add('a', { id: 'a0', at: 0 });
    lines.add('b', { id: 'b0', at: 0 });
    expect(lines.take()?.item.id).toBe('x0');
    lines.add('a', { id: 'a1', at: 1 });
    expect(drain(lines)).toEqual(['a0', 'b0']);
  });

  it('drops stale items and forgets a destination with nothing due and nothing in flight', () => {
    const stale = new Set<string>();
    const lines = linesOf(2, stale);
    lines.add('a', { id: 'a0', at: 0 });
    lines.add('a', { id: 'a1', at: 1 });
    stale.add('a0');
    expect(drain(lines)).toEqual(['a1']);
    lines.ended('a');
    expect(lines.inFlightTo('a')).toBe(0);
    stale.add('b0');
    lines.add('b', { id: 'b0', at: 0 });
    expect(lines.take()).toBeUndefined();
  });

  it.each([0, -1, 1.5, NaN])('refuses a share of %s', (share) => {
    expect(() => linesOf(share)).toThrow(RangeError);
  });

  it('ignores an end it was not told the start of', () => {
    const lines = linesOf(1);
    lines.ended('nowhere');
    lines.add('a', { id: 'a0', at: 0 });
    expect(drain(lines)).toEqual(['a0']);
  });
});
