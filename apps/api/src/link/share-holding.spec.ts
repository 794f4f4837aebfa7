import { LOCAL_ONLY, type LinkRouting } from '../routing/link-routing';
import { ShareHolding } from './share-holding';
import { ShareRegistry } from './share-registry';

const REUSE_MS = 5_000;

describe('ShareHolding', () => {
  let now: number;
  let registry: ShareRegistry;
  let stored: { instance: string; epoch: number } | undefined;
  let reads: number;
  let holding: ShareHolding;

  beforeEach(() => {
    now = 1_000_000;
    registry = new ShareRegistry({ now: () => now, lapseMs: 15_000 });
    stored = undefined;
    reads = 0;
    const routing: LinkRouting = {
      ...LOCAL_ONLY,
      shareHolder: () => {
        reads++;
        return Promise.resolve(stored);
      },
    };
    holding = new ShareHolding(registry, routing, () => now, REUSE_MS);
  });

  it('goes by this replica’s grant while it holds the share, without reading the store', async () => {
    registry.claim('fleet', 'a');
    stored = { instance: 'b', epoch: 7 };
    expect(await holding.holds('fleet', 'a', 1)).toBe(true);
    expect(await holding.holds('fleet', 'b', 7)).toBe(false);
    expect(reads).toBe(0);
  });

  it('goes by the holder another replica stored when the share is not held here', async () => {
    stored = { instance: 'b', epoch: 2 };
    expect(await holding.holds('fleet', 'b', 2)).toBe(true);
    expect(await holding.holds('fleet', 'b', 1)).toBe(false);
    expect(await holding.holds('fleet', 'c', 2)).toBe(false);
    expect(await holding.holds('fleet', 'b', 2)).toBe(true);
  });

  it('reuses a stored holder that agreed for a while, then reads it again', async () => {
    stored = { instance: 'b', epoch: 2 };
    expect(await holding.holds('fleet', 'b', 2)).toBe(true);
    stored = { instance: 'c', epoch: 3 };
    now += REUSE_MS;
    expect(await holding.holds('fleet', 'b', 2)).toBe(true);
    expect(reads).toBe(1);
    now += 1;
    expect(await holding.holds('fleet', 'b', 2)).toBe(false);
    expect(await holding.holds('fleet', 'c', 3)).toBe(true);
  });

  it('refuses everyone on one process once nobody holds the share here', async () => {
    const claim = registry.claim('fleet', 'a');
    if (claim.granted) registry.release(claim.grant);
    expect(await holding.holds('fleet', 'a', 1)).toBe(false);
  });
});
