import { DEFAULT_SHARE } from './share';
import { fleetShares, shareOfTerminal } from './fleet-split';

const SERIALS = Array.from({ length: 1000 }, (_, n) => `SIM${String(n).padStart(7, '0')}`);

describe('shareOfTerminal', () => {
  it('puts every terminal in the one fleet share when the fleet is not split', () => {
    expect(new Set(SERIALS.map((serial) => shareOfTerminal(serial, 1)))).toEqual(new Set([DEFAULT_SHARE]));
    expect(fleetShares(1)).toEqual([DEFAULT_SHARE]);
  });

  it('gives a serial the same share every time', () => {
    expect(shareOfTerminal('SIM0000001', 2)).toBe(shareOfTerminal('SIM0000001', 2));
    expect(SERIALS.map((serial) => shareOfTerminal(serial, 3))).toEqual(
      SERIALS.map((serial) => shareOfTerminal(serial, 3)),
    );
  });

  it.each([2, 3, 5])('spreads the fleet over all %i shares, none far from an even part', (shares) => {
    const counts = new Map<string, number>();
    for (const serial of SERIALS) {
      const share = shareOfTerminal(serial, shares);
      counts.set(share, (counts.get(share) ?? 0) + 1);
    }
    expect([...counts.keys()].sort()).toEqual([...fleetShares(shares)].sort());
    const even = SERIALS.length / shares;
    for (const count of counts.values()) expect(Math.abs(count - even)).toBeLessThan(even * 0.25);
  });

  it('names the shares shard-1 to shard-N', () => {
    expect(fleetShares(3)).toEqual(['shard-1', 'shard-2', 'shard-3']);
  });
});

describe('the seeded fleet split two ways', () => {
  it('keeps its known shares, so that a split never moves a terminal between releases', () => {
    expect(['SIM0000001', 'SIM0000002', 'SIM0000003'].map((serial) => shareOfTerminal(serial, 2))).toEqual([
      'shard-2',
      'shard-1',
      'shard-2',
    ]);
  });
});
