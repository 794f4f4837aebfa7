import { TenantLines } from './tenant-lines';

interface Item {
  id: string;
  at: number;
}

function linesOf(share: number) {
  return new TenantLines<Item>({ share, dueAt: (item) => item.at, isCurrent: () => true });
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
  it("gives a slot freed by a tenant's hanging destination to another tenant waiting, not to the same tenant", () => {
    const lines = linesOf(2);
    // One tenant: ten destinations that hang, each with more due than its share.
    for (let d = 0; d < 10; d += 1)
      for (let i = 0; i < 5; i += 1) lines.add('abuser', `hang${d}`, { id: `abuser-${d}-${i}`, at: i });
    // Eight slots in all: the abuser alone takes them.
    expect(takeUpTo(lines, 8)).toHaveLength(8);
    lines.add('victim', 'fine', { id: 'victim-1', at: 100 });
    lines.add('victim', 'fine', { id: 'victim-2', at: 101 });
    // A slot frees: the victim's first attempt goes before the abuser's next one.
    lines.ended('abuser', 'hang0');
    expect(takeUpTo(lines, 1)).toEqual(['victim-1']);
    // The victim now has 1 in flight against the abuser's 7: the next free slot is its too.
    lines.ended('abuser', 'hang1');
    expect(takeUpTo(lines, 1)).toEqual(['victim-2']);
    lines.ended('abuser', 'hang2');
    expect(takeUpTo(lines, 1)).toEqual([expect.stringMatching(/^abuser-/)]);
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
