import type { TerminalEntity } from '../terminals/terminal.entity';
import {
  FULL_PASS_EVERY_MS,
  FleetPass,
  REHOST_AFTER_MS,
  type FleetLinks,
  type FleetTerminals,
} from './fleet-pass';

/** The fleet as the database lists it: each serial's terminal, offline or not. */
class MemoryFleet implements FleetTerminals {
  readonly terminals = new Map<string, TerminalEntity>();
  terminalsRead = 0;
  /** How many times the serials were read: a full pass each. */
  fullPasses = 0;

  add(serial: string, offline = false): void {
    this.terminals.set(serial, { serialNumber: serial, offline } as TerminalEntity);
  }
  countOnline(): Promise<number> {
    return Promise.resolve([...this.terminals.values()].filter((t) => !t.offline).length);
  }
  listOnlineSerials(): Promise<string[]> {
    this.fullPasses++;
    return Promise.resolve([...this.terminals.values()].filter((t) => !t.offline).map((t) => t.serialNumber));
  }
  findBySerials(serials: string[]): Promise<TerminalEntity[]> {
    this.terminalsRead += serials.length;
    return Promise.resolve(serials.flatMap((serial) => this.terminals.get(serial) ?? []));
  }
}

/** Links by hand: which uplinks are up here or on another replica, which shares' control links are here. */
class MemoryLinks implements FleetLinks {
  readonly here = new Set<string>();
  changes = 0;
  readonly elsewhere = new Set<string>();
  readonly controls = new Set<string>(['shard-1']);
  /** Each serial the fleet notice listed, with when. */
  readonly noticed = new Map<string, number>();
  readonly hosted: string[] = [];
  storeReads = 0;

  get anyControlHere(): boolean {
    return this.controls.size > 0;
  }
  /** Serials ending in an odd digit are in shard-1, the others in shard-2. */
  shareOf(serial: string): string {
    return Number(serial.slice(-1)) % 2 === 1 ? 'shard-1' : 'shard-2';
  }
  /** An uplink opens here. */
  link(serial: string): void {
    this.here.add(serial);
    this.changes++;
  }
  /** An uplink closes here. */
  unlink(serial: string): void {
    this.here.delete(serial);
    this.changes++;
  }
  upHere(serial: string): boolean {
    return this.here.has(serial);
  }
  controlPeerOf(share: string): object | undefined {
    return this.controls.has(share) ? {} : undefined;
  }
  noticedAt(serial: string): number | undefined {
    return this.noticed.get(serial);
  }
  uplinksAnywhere(serials: string[]): Promise<Map<string, string>> {
    this.storeReads++;
    return Promise.resolve(new Map(serials.filter((s) => this.elsewhere.has(s)).map((s) => [s, 'then'])));
  }
  host(terminal: TerminalEntity): Promise<void> {
    this.hosted.push(terminal.serialNumber);
    return Promise.resolve();
  }
}

function setUp(): { fleet: MemoryFleet; links: MemoryLinks; pass: FleetPass; clock: { at: number } } {
  const fleet = new MemoryFleet();
  const links = new MemoryLinks();
  const clock = { at: 0 };
  return { fleet, links, clock, pass: new FleetPass(fleet, links, () => clock.at) };
}

describe('FleetPass', () => {
  it('asks for each terminal of a share linked here that no live replica holds the uplink of', async () => {
    const { fleet, links, pass } = setUp();
    for (const serial of ['SIM1', 'SIM3', 'SIM5', 'SIM7', 'SIM2']) fleet.add(serial);
    fleet.add('SIM9', true);
    links.here.add('SIM3');
    links.elsewhere.add('SIM5');
    await pass.run();
    // SIM3 up here, SIM5 up elsewhere, SIM9 offline, SIM2 of a share linked to another replica.
    expect(links.hosted.sort()).toEqual(['SIM1', 'SIM7']);
  });

  it('asks again for a terminal that did not link, once it was given its time', async () => {
    const { fleet, links, pass, clock } = setUp();
    fleet.add('SIM1');
    await pass.run();
    clock.at += REHOST_AFTER_MS - 1;
    await pass.run();
    expect(links.hosted).toEqual(['SIM1']);
    clock.at += 1;
    await pass.run();
    expect(links.hosted).toEqual(['SIM1', 'SIM1']);
  });

  it('asks at once for a terminal whose uplink dropped after it had linked', async () => {
    const { fleet, links, pass, clock } = setUp();
    fleet.add('SIM1');
    await pass.run();
    links.link('SIM1');
    clock.at += 1;
    await pass.run();
    links.unlink('SIM1');
    clock.at += 1;
    await pass.run();
    expect(links.hosted).toEqual(['SIM1', 'SIM1']);
  });

  it('gives the terminals the fleet notice asked for their time, and asks at once for one it did not list', async () => {
    const { fleet, links, pass, clock } = setUp();
    fleet.add('SIM1');
    fleet.add('SIM3');
    clock.at = 60_000;
    links.noticed.set('SIM1', clock.at);
    await pass.run();
    expect(links.hosted).toEqual(['SIM3']);
    clock.at += REHOST_AFTER_MS - 1;
    await pass.run();
    expect(links.hosted).toEqual(['SIM3']);
    clock.at += 1;
    await pass.run();
    expect(links.hosted).toEqual(['SIM3', 'SIM1', 'SIM3']);
  });

  it('reads only how many terminals there are while the fleet is settled, and the whole of it when that or a link changed', async () => {
    const { fleet, links, pass, clock } = setUp();
    fleet.add('SIM1');
    fleet.add('SIM2');
    links.link('SIM1');
    await pass.run();
    clock.at += 1000;
    await pass.run();
    expect(fleet.fullPasses).toBe(1);

    // The merchant CLI adds a terminal, straight to the database.
    fleet.add('SIM3');
    await pass.run();
    expect(links.hosted).toEqual(['SIM3']);
    links.link('SIM3');
    clock.at += 1000;
    await pass.run();
    clock.at += 1000;
    await pass.run();
    expect(fleet.fullPasses).toBe(3);

    links.unlink('SIM1');
    await pass.run();
    expect(links.hosted).toEqual(['SIM3', 'SIM1']);
    expect(fleet.fullPasses).toBe(4);
  });

  it('reads the whole fleet every so often even when nothing seems to have changed', async () => {
    const { fleet, links, pass, clock } = setUp();
    fleet.add('SIM1');
    links.link('SIM1');
    await pass.run();
    // Its uplink went without a close here (the simulator dropped it as this replica was away).
    links.here.delete('SIM1');
    clock.at += FULL_PASS_EVERY_MS - 1;
    await pass.run();
    expect(links.hosted).toEqual([]);
    clock.at += 1;
    await pass.run();
    expect(links.hosted).toEqual(['SIM1']);
  });

  it('reads the whole fleet each pass while a terminal of a share linked here is linked on another replica', async () => {
    const { fleet, links, pass, clock } = setUp();
    fleet.add('SIM1');
    links.elsewhere.add('SIM1');
    await pass.run();
    clock.at += 1000;
    // That replica died: nothing closed here.
    links.elsewhere.delete('SIM1');
    await pass.run();
    expect(links.hosted).toEqual(['SIM1']);
  });

  it('leaves alone the terminals being reset or removed', async () => {
    const { fleet, links, pass } = setUp();
    fleet.add('SIM1');
    fleet.add('SIM3');
    await pass.holding(['SIM1'], () => pass.run());
    expect(links.hosted).toEqual(['SIM3']);
  });

  it('does nothing on a replica that holds no control link', async () => {
    const { fleet, links, pass } = setUp();
    links.controls.clear();
    fleet.add('SIM1');
    await pass.run();
    expect(links.hosted).toEqual([]);
  });

  it('reads no terminal and asks the store nothing while every terminal is linked', async () => {
    const { fleet, links, pass } = setUp();
    for (let n = 1; n <= 1000; n++) {
      fleet.add(`SIM${n}`);
      if (links.shareOf(`SIM${n}`) === 'shard-1') links.here.add(`SIM${n}`);
    }
    await pass.run();
    expect(links.hosted).toEqual([]);
    expect(fleet.terminalsRead).toBe(0);
    expect(links.storeReads).toBe(0);
  });

  it('does not ask for a terminal set offline between the serials read and the terminal read', async () => {
    const { fleet, links, pass } = setUp();
    fleet.add('SIM1');
    const list = fleet.listOnlineSerials.bind(fleet);
    fleet.listOnlineSerials = async () => {
      const serials = await list();
      fleet.add('SIM1', true);
      return serials;
    };
    await pass.run();
    expect(links.hosted).toEqual([]);
  });
});
