import { ShareRegistry, type ShareGrant } from './share-registry';

const LAPSE_MS = 15_000;

function granted(registry: ShareRegistry, share: string, instance: string): ShareGrant {
  const claim = registry.claim(share, instance);
  if (!claim.granted) throw new Error(`expected ${instance} to be granted ${share}`);
  return claim.grant;
}

describe('ShareRegistry', () => {
  let now: number;
  let registry: ShareRegistry;

  beforeEach(() => {
    now = 1_000_000;
    registry = new ShareRegistry({ now: () => now, lapseMs: LAPSE_MS });
  });

  it('grants a free share with epoch 1', () => {
    const grant = granted(registry, 'fleet', 'a');
    expect(grant).toMatchObject({ share: 'fleet', instance: 'a', epoch: 1, since: now });
    expect(registry.holds('fleet', 'a', 1)).toBe(true);
    expect(registry.status('fleet')).toMatchObject({ holder: grant, linksInWindow: 1, refusedInWindow: 0 });
  });

  it('refuses another instance while the holder is linked, and counts the refusal', () => {
    const holder = granted(registry, 'fleet', 'a');
    now += 1000;
    expect(registry.claim('fleet', 'b')).toEqual({ granted: false, holder });
    expect(registry.claim('fleet', 'b').granted).toBe(false);
    expect(registry.holds('fleet', 'a', 1)).toBe(true);
    expect(registry.holds('fleet', 'b', 1)).toBe(false);
    expect(registry.status('fleet')).toMatchObject({
      holder,
      refusedInWindow: 2,
      refused: [
        { instance: 'b', at: now },
        { instance: 'b', at: now },
      ],
    });
  });

  it('keeps shares apart', () => {
    granted(registry, 'fleet', 'a');
    expect(granted(registry, 'east', 'b')).toMatchObject({ share: 'east', epoch: 1 });
  });

  it('lets another instance take the share over once the holder link closed, with a higher epoch', () => {
    const first = granted(registry, 'fleet', 'a');
    registry.release(first);
    const second = granted(registry, 'fleet', 'b');
    expect(second.epoch).toBe(2);
    expect(registry.holds('fleet', 'a', 1)).toBe(false);
    expect(registry.holds('fleet', 'b', 2)).toBe(true);
  });

  it('lets another instance take the share over once the holder heartbeat lapsed, and not before', () => {
    const first = granted(registry, 'fleet', 'a');
    now += LAPSE_MS - 1;
    registry.heartbeat(first);
    now += LAPSE_MS;
    expect(registry.claim('fleet', 'b').granted).toBe(false);
    expect(registry.lapsed()).toEqual([]);
    now += 2;
    expect(registry.lapsed()).toEqual([first]);
    expect(registry.status('fleet').holder).toBeNull();
    expect(registry.claim('fleet', 'b')).toMatchObject({
      granted: true,
      grant: { epoch: 2 },
      displaced: first,
    });
    expect(registry.lapsed()).toEqual([]);
  });

  it('ignores a stale grant: its heartbeat, its close and its frames (lower epoch)', () => {
    const first = granted(registry, 'fleet', 'a');
    now += LAPSE_MS + 1;
    const second = granted(registry, 'fleet', 'b');
    registry.heartbeat(first);
    registry.release(first);
    expect(registry.status('fleet').holder).toEqual(second);
    expect(registry.holds('fleet', 'a', first.epoch)).toBe(false);
    expect(registry.holds('fleet', 'b', first.epoch)).toBe(false);
    expect(registry.holds('fleet', 'b', second.epoch)).toBe(true);
  });

  it('lets the holder link again under its epoch; the close of its older link releases nothing', () => {
    const first = granted(registry, 'fleet', 'a');
    const again = granted(registry, 'fleet', 'a');
    expect(again.epoch).toBe(first.epoch);
    expect(again.link).not.toBe(first.link);
    registry.release(first);
    expect(registry.holds('fleet', 'a', first.epoch)).toBe(true);
    expect(registry.claim('fleet', 'b').granted).toBe(false);
  });

  it('counts only the last minute, and calls five links in it flapping', () => {
    for (let i = 0; i < 4; i++) registry.release(granted(registry, 'fleet', 'a'));
    expect(registry.status('fleet').flapping).toBe(false);
    const fifth = granted(registry, 'fleet', 'a');
    registry.claim('fleet', 'b');
    expect(registry.status('fleet')).toMatchObject({ linksInWindow: 5, flapping: true, refusedInWindow: 1 });
    now += 60_001;
    registry.heartbeat(fifth);
    expect(registry.status('fleet')).toMatchObject({
      holder: fifth,
      linksInWindow: 0,
      flapping: false,
      refusedInWindow: 0,
      refused: [],
    });
  });
});
