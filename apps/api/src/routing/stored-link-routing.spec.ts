import type { RequestRouter } from './request-router';
import type { HeldLinks, LinkHolders, ReplicaRows } from './routing-ports';
import { StoredLinkRouting } from './stored-link-routing';
import { ThisReplica } from './this-replica';

/** Holders whose writes are recorded and done only when the spec says so. */
class HeldHolders implements Pick<LinkHolders, 'uplinksChanged' | 'controlOpened' | 'controlClosed'> {
  readonly writes: string[] = [];
  readonly uplinkChanges: Array<Array<[string, boolean]>> = [];
  private readonly waiting: Array<() => void> = [];

  uplinksChanged(changes: ReadonlyMap<string, boolean>): Promise<void> {
    // Read when the write is sent, as the statement's parameters were.
    const entries = [...changes];
    this.uplinkChanges.push(entries);
    return this.held(`uplinks ${entries.map(([serial, open]) => `${open ? '+' : '-'}${serial}`).join(' ')}`);
  }

  controlOpened(share: string): Promise<void> {
    return this.held(`control opened ${share}`);
  }

  controlClosed(share: string): Promise<void> {
    return this.held(`control closed ${share}`);
  }

  /** Does the writes sent so far, and lets the writes queued behind them go. */
  async answer(): Promise<void> {
    for (const resolve of this.waiting.splice(0)) resolve();
    await new Promise((resolve) => setImmediate(resolve));
  }

  private held(write: string): Promise<void> {
    this.writes.push(write);
    return new Promise((resolve) => this.waiting.push(resolve));
  }
}

function routingOn(holders: HeldHolders): StoredLinkRouting {
  return new StoredLinkRouting(
    holders as unknown as LinkHolders,
    new ThisReplica({} as ReplicaRows, 'replica-a', 1000, () => undefined),
    {} as RequestRouter,
    (error) => {
      throw error;
    },
    () => undefined,
  );
}

const flushed = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('StoredLinkRouting', () => {
  it('stores the uplinks that open while a write is under way in one write', async () => {
    const holders = new HeldHolders();
    const routing = routingOn(holders);
    routing.uplinkOpened('SIM0000001');
    await flushed();
    for (let n = 2; n <= 500; n++) routing.uplinkOpened(`SIM${String(n).padStart(7, '0')}`);
    await flushed();
    expect(holders.writes).toHaveLength(1);

    await holders.answer();
    expect(holders.writes).toHaveLength(2);
    const [, batch] = holders.uplinkChanges;
    expect(batch).toHaveLength(499);
    expect(batch.every(([, open]) => open)).toBe(true);
  });

  it('stores only how each uplink of a batch stands after its last change', async () => {
    const holders = new HeldHolders();
    const routing = routingOn(holders);
    routing.controlOpened('shard-1', 'instance-a', 1);
    await flushed();
    routing.uplinkOpened('SIM0000001');
    routing.uplinkOpened('SIM0000002');
    routing.uplinkClosed('SIM0000001');
    routing.uplinkClosed('SIM0000003');
    routing.uplinkOpened('SIM0000003');
    await holders.answer();
    expect(holders.writes).toHaveLength(2);
    expect(holders.uplinkChanges[0]).toEqual([
      ['SIM0000001', false],
      ['SIM0000002', true],
      ['SIM0000003', true],
    ]);
  });

  it('keeps a control link write between the uplink changes before and after it', async () => {
    const holders = new HeldHolders();
    const routing = routingOn(holders);
    routing.controlClosed('shard-0');
    await flushed();
    routing.uplinkOpened('SIM0000001');
    routing.controlOpened('shard-1', 'instance-a', 1);
    routing.uplinkClosed('SIM0000001');
    await holders.answer();
    await holders.answer();
    await holders.answer();
    expect(holders.writes).toEqual([
      'control closed shard-0',
      'uplinks +SIM0000001',
      'control opened shard-1',
      'uplinks -SIM0000001',
    ]);
  });

  it('repairs after a failed write, again until every link held here is stored as held here', async () => {
    // The first rewrite finds another live replica stored as the share's holder; the second does not.
    const answers = [false, true];
    const rewrites: string[][] = [];
    const holders: Pick<LinkHolders, 'controlOpened' | 'rewrite'> = {
      controlOpened: () => Promise.reject(new Error('the store is away')),
      rewrite: (held: HeldLinks) => {
        rewrites.push([...held.controls.keys()]);
        return Promise.resolve(answers.shift() ?? true);
      },
    };
    const errors: unknown[] = [];
    const routing = new StoredLinkRouting(
      holders as LinkHolders,
      new ThisReplica({} as ReplicaRows, 'replica-a', 1000, () => undefined),
      {} as RequestRouter,
      (error) => errors.push(error),
      () => undefined,
    );
    const repair = async (): Promise<void> => {
      routing.repair();
      await routing.flush();
    };
    await repair();
    expect(rewrites).toEqual([]);

    routing.controlOpened('shard-1', 'instance-b', 2);
    await routing.flush();
    expect(errors).toHaveLength(1);
    await repair();
    await repair();
    await repair();
    expect(rewrites).toEqual([['shard-1'], ['shard-1']]);
  });

  it('rewrites the links held here when asked to though no write failed, after the writes queued before', async () => {
    const holders = new HeldHolders();
    const rewrites: string[][] = [];
    const rewriting = Object.assign(holders, {
      rewrite: (held: HeldLinks) => {
        rewrites.push([...held.uplinks]);
        return Promise.resolve(true);
      },
    });
    const routing = routingOn(rewriting);
    routing.uplinkOpened('SIM0000001');
    routing.rewriteAll();
    await flushed();
    expect(rewrites).toEqual([]);
    await holders.answer();
    await routing.flush();
    expect(rewrites).toEqual([['SIM0000001']]);
    // Done: the next repair has nothing to write.
    routing.repair();
    await routing.flush();
    expect(rewrites).toHaveLength(1);
  });
});
