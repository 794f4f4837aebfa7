import { TenantSlots, type HeldSlot } from './tenant-slots';
import { AttemptAbandoned } from './webhook-post';

/** Takes a slot and notes, in `granted`, the name it was asked under once it is given. */
function ask(slots: TenantSlots, tenant: string, destination: string, name: string, granted: string[]) {
  return slots.take(tenant, destination).then((slot) => {
    granted.push(name);
    return slot;
  });
}

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('tenant slots', () => {
  it("keeps the last free slots from a merchant holding its share: another merchant's first starts at once", async () => {
    const slots = new TenantSlots({ slots: 8, share: 2 });
    const granted: string[] = [];
    for (let d = 0; d < 10; d += 1)
      for (let i = 0; i < 3; i += 1) void ask(slots, 'abuser', `hang${d}`, `abuser-${d}-${i}`, granted);
    await turn();
    // Every slot but the reserve of two (one destination's share), none of which ends.
    expect(granted).toHaveLength(6);
    void ask(slots, 'victim', 'fine', 'victim-1', granted);
    void ask(slots, 'victim', 'fine', 'victim-2', granted);
    await turn();
    expect(granted.slice(6)).toEqual(['victim-1', 'victim-2']);
  });

  it("gives a slot outside the reserve to the merchant with fewer in flight, before that merchant's next", async () => {
    const slots = new TenantSlots({ slots: 8, share: 2 });
    const granted: string[] = [];
    const abuser = new Map<string, Promise<HeldSlot>>();
    for (let d = 0; d < 10; d += 1)
      for (let i = 0; i < 3; i += 1) {
        const name = `abuser-${d}-${i}`;
        abuser.set(name, ask(slots, 'abuser', `hang${d}`, name, granted));
      }
    await turn();
    for (const name of ['victim-1', 'victim-2', 'victim-3']) void ask(slots, 'victim', name, name, granted);
    await turn();
    expect(granted.slice(6)).toEqual(['victim-1', 'victim-2']);
    // Two slots free are the reserve, which neither may take with two or more in flight.
    const held = await Promise.all(granted.slice(0, 6).map((name) => abuser.get(name)!));
    held[0].ended(true);
    held[1].ended(true);
    await turn();
    expect(granted).toHaveLength(8);
    // A third: the victim's (2 in flight against the abuser's 3), before the abuser's next.
    held[2].ended(true);
    await turn();
    expect(granted.slice(8)).toEqual(['victim-3']);
    held[3].ended(true);
    await turn();
    expect(granted.slice(9)).toEqual([expect.stringMatching(/^abuser-/)]);
  });

  it("holds a merchant's destination to its share, and to one after three timeouts in a row", async () => {
    const cuts: boolean[] = [];
    const slots = new TenantSlots({
      slots: 10,
      share: 3,
      onTimedOut: (_tenant, _destination, cut) => cuts.push(cut),
    });
    const granted: string[] = [];
    const asked = Array.from({ length: 8 }, (_, n) => ask(slots, 'm', 'hangs', `m-${n}`, granted));
    await turn();
    expect(granted).toEqual(['m-0', 'm-1', 'm-2']);
    for (const n of [0, 1, 2]) (await asked[n]).ended(true);
    await turn();
    // Each of the first two timeouts gave its slot to the next; the third cut the share to one.
    expect(granted).toEqual(['m-0', 'm-1', 'm-2', 'm-3', 'm-4']);
    expect(cuts).toEqual([false, false, true]);
    (await asked[3]).ended(true);
    await turn();
    expect(granted).toHaveLength(5);
    (await asked[4]).ended(true);
    await turn();
    expect(granted).toHaveLength(6);
    // An answer gives the share back.
    (await asked[5]).ended(false);
    await turn();
    expect(granted).toHaveLength(8);
  });

  it('keeps the timeouts in a row when a slot is given back with no attempt made', async () => {
    const cuts: boolean[] = [];
    const slots = new TenantSlots({ slots: 10, share: 3, onTimedOut: (_t, _d, cut) => cuts.push(cut) });
    const granted: string[] = [];
    const asked = Array.from({ length: 4 }, (_, n) => ask(slots, 'm', 'hangs', `m-${n}`, granted));
    await turn();
    (await asked[0]).ended(true);
    (await asked[1]).release();
    (await asked[2]).ended(true);
    (await asked[3]).ended(true);
    expect(cuts).toEqual([false, false, true]);
  });

  it('abandons what waits when stopped, and every take after', async () => {
    const slots = new TenantSlots({ slots: 1, share: 1 });
    const first = await slots.take('m', 'a');
    const waiting = slots.take('m', 'b');
    slots.stop();
    await expect(waiting).rejects.toBeInstanceOf(AttemptAbandoned);
    await expect(slots.take('other', 'c')).rejects.toBeInstanceOf(AttemptAbandoned);
    first.ended(false);
  });
});
