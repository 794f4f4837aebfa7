import { TenantLines } from './tenant-lines';

interface Item {
  id: string;
  at: number;
}

function linesOf(share: number, slots = 64) {
  return new TenantLines<Item>({ slots, share, dueAt: (item) => item.at, isCurrent: () => true });
}

/** Takes up to `room` items; their ids in the order they were handed out. */
function takeUpTo(lines: TenantLines<Item>, room: number): string[] {
  const taken: string[] = [];
  while (taken.length < room) {
    const next = lines.take();
    if (next === undefined) break;
    taken.push(next.item.id);
  }
  return taken;
}

describe('tenant lines', () => {
  it('keeps the last `share` free slots from a tenant holding that many: a tenant arriving later starts at once', () => {
    const lines = linesOf(2, 8);
    // One tenant: ten destinations that hang, each with more due than its share.
    for (let d = 0; d < 10; d += 1)
      for (let i = 0; i < 5; i += 1) lines.add('abuser', `hang${d}`, { id: `abuser-${d}-${i}`, at: i });
    // Eight slots in all: the abuser takes all but the reserve of two, and no more.
    expect(takeUpTo(lines, 8)).toHaveLength(6);
    expect(lines.inFlightOf('abuser')).toBe(6);
    // Another tenant's due items start at once, in the reserve, none waiting for a slot to free.
    for (let i = 0; i < 3; i += 1) lines.add('victim', `fine${i}`, { id: `victim-${i}`, at: 100 + i });
    expect(takeUpTo(lines, 8)).toEqual(['victim-0', 'victim-1']);
    // Every slot is taken now.
    lines.add('third', 'd', { id: 'third-0', at: 200 });
    expect(lines.take()).toBeUndefined();
  });

  it('gives a slot outside the reserve to the tenant with fewer in flight, not back to the one that freed it', () => {
    const lines = linesOf(2, 8);
    for (let d = 0; d < 10; d += 1)
      for (let i = 0; i < 5; i += 1) lines.add('abuser', `hang${d}`, { id: `abuser-${d}-${i}`, at: i });
    expect(takeUpTo(lines, 8)).toHaveLength(6);
    for (let d = 0; d < 3; d += 1) lines.add('victim', `fine${d}`, { id: `victim-${d}`, at: 100 + d });
    expect(takeUpTo(lines, 8)).toEqual(['victim-0', 'victim-1']);
    // Two slots free: the reserve, which neither may take with two or more in flight.
    lines.ended('abuser', 'hang0');
    lines.ended('abuser', 'hang1');
    expect(lines.take()).toBeUndefined();
    // A third: it goes to the victim (2 in flight) before the abuser (4), and the reserve stays free.
    lines.ended('abuser', 'hang2');
    expect(takeUpTo(lines, 8)).toEqual(['victim-2']);
    // The abuser, with fewer in flight now than the victim, takes the next.
    lines.ended('abuser', 'hang3');
    expect(takeUpTo(lines, 8)).toEqual([expect.stringMatching(/^abuser-/)]);
  });

  it('lets a tenant alone hold every slot but the reserve, and the whole of a share above half the slots', () => {
    const alone = linesOf(8, 64);
    for (let d = 0; d < 10; d += 1)
      for (let i = 0; i < 8; i += 1) alone.add('m', `d${d}`, { id: `${d}-${i}`, at: i });
    expect(takeUpTo(alone, 64)).toHaveLength(56);
    // A share of six out of eight slots: the tenant holds six, the last two are the reserve.
    const wide = linesOf(6, 8);
    for (let d = 0; d < 2; d += 1)
      for (let i = 0; i < 8; i += 1) wide.add('m', `d${d}`, { id: `${d}-${i}`, at: i });
    expect(takeUpTo(wide, 8)).toHaveLength(6);
  });

  it('takes in turn from tenants with as many in flight', () => {
    const lines = linesOf(8);
    for (const tenant of ['a', 'b', 'c'])
      for (let i = 0; i < 2; i += 1) lines.add(tenant, 'd', { id: `${tenant}${i}`, at: i });
    expect(takeUpTo(lines, 6)).toEqual(['a0', 'b0', 'c0', 'a1', 'b1', 'c1']);
  });

  it('keeps each destination of a tenant within its share', () => {
    const lines = linesOf(2);
    for (let i = 0; i < 5; i += 1) lines.add('a', 'slow', { id: `slow${i}`, at: i });
    expect(takeUpTo(lines, 10)).toEqual(['slow0', 'slow1']);
    expect(lines.inFlightTo('a', 'slow')).toBe(2);
    lines.ended('a', 'slow');
    expect(takeUpTo(lines, 10)).toEqual(['slow2']);
  });

  it('refuses fewer than one slot', () => {
    expect(() => linesOf(2, 0)).toThrow(RangeError);
  });

  it('forgets a tenant once it has nothing due and nothing in flight', () => {
    const lines = linesOf(2);
    lines.add('a', 'd', { id: 'only', at: 0 });
    expect(takeUpTo(lines, 10)).toEqual(['only']);
    expect(lines.inFlightOf('a')).toBe(1);
    lines.ended('a', 'd');
    expect(lines.inFlightOf('a')).toBe(0);
    lines.ended('a', 'd');
    expect(lines.take()).toBeUndefined();
  });
});
