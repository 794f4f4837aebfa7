import type { TerminalEntity } from '../terminals/terminal.entity';

/** What a pass reads of the fleet: how many should be linked, their serials, and their terminals. */
export interface FleetTerminals {
  countOnline(): Promise<number>;
  listOnlineSerials(): Promise<string[]>;
  findBySerials(serials: string[]): Promise<TerminalEntity[]>;
}

/** What a pass knows of the links, and how it asks a simulator to host a terminal. */
export interface FleetLinks {
  readonly anyControlHere: boolean;
  /** Grows with each link that opens or closes on this replica. */
  readonly changes: number;
  shareOf(serial: string): string;
  /** Whether this replica holds the terminal's open uplink. */
  upHere(serial: string): boolean;
  controlPeerOf(share: string): object | undefined;
  /** When the fleet notice of the terminal's share, sent as its control link opened here, asked for it. */
  noticedAt(serial: string): number | undefined;
  uplinksAnywhere(serials: string[]): Promise<Map<string, string> | undefined>;
  host(terminal: TerminalEntity, timeoutMs: number): Promise<void>;
}

const HOST_TIMEOUT_MS = 5000;
/** A terminal just asked for is given this long to link before it is asked for again. */
export const REHOST_AFTER_MS = 5000;
/** Host requests in flight at once: the simulator takes them one after another anyway. */
const HOSTED_AT_ONCE = 50;
/** A settled fleet is read whole this often even when nothing seems to have changed. */
export const FULL_PASS_EVERY_MS = 10_000;

/**
 * One pass of the fleet sync: asks the simulators whose control link this replica holds to host
 * each terminal of theirs that is not offline and has no uplink on any live replica. Only the
 * serials of the fleet are read each pass, and a terminal itself only when it is to be asked for,
 * so that a large linked fleet costs a pass little.
 */
export class FleetPass {
  private readonly askedAt = new Map<string, number>();
  /** Terminals being reset or removed: hosting them meanwhile would bring back what goes away. */
  private readonly held = new Map<string, number>();
  /** Each serial's share, kept from one pass to the next (the hash is the same for ever). */
  private shares = new Map<string, string>();
  /** What the last full pass saw, and whether it left terminals of shares linked here unlinked here. */
  private last = { count: -1, changes: -1, at: Number.NEGATIVE_INFINITY, unsettled: true };

  constructor(
    private readonly terminals: FleetTerminals,
    private readonly links: FleetLinks,
    private readonly now: () => number,
  ) {}

  /** Runs `work` while these terminals are left alone. */
  async holding<T>(serials: string[], work: () => Promise<T>): Promise<T> {
    for (const serial of serials) this.held.set(serial, (this.held.get(serial) ?? 0) + 1);
    try {
      return await work();
    } finally {
      for (const serial of serials) {
        const count = (this.held.get(serial) ?? 1) - 1;
        if (count === 0) this.held.delete(serial);
        else this.held.set(serial, count);
      }
    }
  }

  /**
   * A pass. While the last one found every terminal of the shares linked here linked here, and
   * neither the number of terminals to link nor the links here changed since, only that number is
   * read (the merchant CLI adds terminals), and the whole fleet only every FULL_PASS_EVERY_MS.
   */
  async run(): Promise<void> {
    if (!this.links.anyControlHere) return;
    const now = this.now();
    const changes = this.links.changes;
    const count = await this.terminals.countOnline();
    const { last } = this;
    if (
      !last.unsettled &&
      count === last.count &&
      changes === last.changes &&
      now - last.at < FULL_PASS_EVERY_MS
    )
      return;
    this.last = { count, changes, at: now, unsettled: true };
    this.last.unsettled = await this.fullPass(now);
  }

  /** Asks for what is due; true when some terminal of a share linked here is not linked here. */
  private async fullPass(now: number): Promise<boolean> {
    const listed = await this.terminals.listOnlineSerials();
    const downHere = listed.filter(
      (serial) => !this.links.upHere(serial) && this.links.controlPeerOf(this.shareOf(serial)) !== undefined,
    );
    this.forgetRemoved(listed);
    // An uplink another replica holds is up: its terminal is hosted.
    const elsewhere = downHere.length === 0 ? undefined : await this.links.uplinksAnywhere(downHere);
    const down = new Set(downHere.filter((serial) => !(elsewhere?.has(serial) ?? false)));
    for (const serial of this.askedAt.keys()) if (!down.has(serial)) this.askedAt.delete(serial);
    const due = [...down].filter(
      (serial) => !this.held.has(serial) && now - this.askedLast(serial) >= REHOST_AFTER_MS,
    );
    // One linked on another replica stays unsettled: that replica may die, with no link closing here.
    const unsettled = downHere.length > 0;
    if (due.length === 0) return unsettled;
    // Read now, not with the serials: one set offline meanwhile is left alone.
    const terminals = (await this.terminals.findBySerials(due)).filter((terminal) => !terminal.offline);
    for (let at = 0; at < terminals.length; at += HOSTED_AT_ONCE) {
      const part = terminals.slice(at, at + HOSTED_AT_ONCE).filter((t) => !this.held.has(t.serialNumber));
      for (const terminal of part) this.askedAt.set(terminal.serialNumber, now);
      await Promise.all(part.map((terminal) => this.links.host(terminal, HOST_TIMEOUT_MS)));
    }
    return unsettled;
  }

  /**
   * When the terminal was last asked for: by this pass, or by the fleet notice of its share's
   * control link (so that a simulator that just linked, its thousands of uplinks opening, is not
   * asked for each of them again meanwhile; one the notice did not list is asked for at once).
   */
  private askedLast(serial: string): number {
    return Math.max(this.askedAt.get(serial) ?? -Infinity, this.links.noticedAt(serial) ?? -Infinity);
  }

  private shareOf(serial: string): string {
    let share = this.shares.get(serial);
    if (share === undefined) {
      share = this.links.shareOf(serial);
      this.shares.set(serial, share);
    }
    return share;
  }

  /** The serials no longer listed leave the cache of shares, once it is larger than the fleet. */
  private forgetRemoved(listed: string[]): void {
    if (this.shares.size <= listed.length) return;
    const kept = new Map<string, string>();
    for (const serial of listed) {
      const share = this.shares.get(serial);
      if (share !== undefined) kept.set(serial, share);
    }
    this.shares = kept;
  }
}
