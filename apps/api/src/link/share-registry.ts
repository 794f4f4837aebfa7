/** One control link granted a share: who holds it, under which epoch, since when. */
export interface ShareGrant {
  share: string;
  instance: string;
  epoch: number;
  /** Unique per grant, so that the close of an older link of the same instance releases nothing. */
  link: number;
  since: number;
}

/** `displaced`: the grant still on record that this one replaces (a lapsed holder, or the same instance's older link). */
export type ShareClaim =
  { granted: true; grant: ShareGrant; displaced?: ShareGrant } | { granted: false; holder: ShareGrant };

export interface ShareStatus {
  share: string;
  holder: ShareGrant | null;
  /** Links granted in the window (a stable link counts one). */
  linksInWindow: number;
  flapping: boolean;
  refusedInWindow: number;
  /** The latest few refused attempts, newest last. */
  refused: Array<{ instance: string; at: number }>;
}

export interface ShareRegistryOptions {
  now: () => number;
  /** A holder not heard from (heartbeat) for this long is gone. */
  lapseMs: number;
  /** The window of `linksInWindow` and `refusedInWindow`. */
  windowMs?: number;
  /** This many links granted within the window is a flapping link. */
  flapLinks?: number;
}

const WINDOW_MS = 60_000;
const FLAP_LINKS = 5;
/** Links and refused attempts counted per share and window: a bound on memory, far above any honest rate. */
const COUNTED_PER_WINDOW = 1000;
/** Refused attempts named in the status, the latest ones. */
const REFUSALS_NAMED = 5;

interface ShareState {
  holder: (ShareGrant & { lastSeen: number }) | undefined;
  /** The epoch of the latest grant and the instance it went to. */
  epoch: number;
  lastInstance: string | undefined;
  links: number[];
  refusals: Array<{ instance: string; at: number }>;
}

/**
 * Which simulator instance holds each fleet share (docs/contract.md §13, "One simulator per fleet
 * share"). One instance at a time; another is refused while the holder is alive (its link open and
 * its heartbeat fresh). The epoch grows each time the share passes to another instance, so that
 * anything sent under a lower epoch can be told apart and ignored. In memory: the state of one
 * service process, behind this class so that a shared store can take its place.
 */
export class ShareRegistry {
  private readonly shares = new Map<string, ShareState>();
  private nextLink = 1;
  private readonly windowMs: number;
  private readonly flapLinks: number;

  constructor(private readonly options: ShareRegistryOptions) {
    this.windowMs = options.windowMs ?? WINDOW_MS;
    this.flapLinks = options.flapLinks ?? FLAP_LINKS;
  }

  /**
   * Grants the share to `instance` when nobody alive holds it, or when the holder is that same
   * instance linking again (its older link is half-open); else refuses, naming the holder.
   */
  claim(share: string, instance: string): ShareClaim {
    const now = this.options.now();
    const state = this.stateOf(share, now);
    const holder = state.holder;
    if (holder !== undefined && !this.lapsedAt(holder, now) && holder.instance !== instance) {
      state.refusals.push({ instance, at: now });
      if (state.refusals.length > COUNTED_PER_WINDOW) state.refusals.shift();
      return { granted: false, holder: this.publicGrant(holder) };
    }
    const epoch = state.lastInstance === instance ? state.epoch : state.epoch + 1;
    const grant: ShareGrant = { share, instance, epoch, link: this.nextLink++, since: now };
    state.holder = { ...grant, lastSeen: now };
    state.epoch = epoch;
    state.lastInstance = instance;
    state.links.push(now);
    if (state.links.length > COUNTED_PER_WINDOW) state.links.shift();
    return holder === undefined
      ? { granted: true, grant }
      : { granted: true, grant, displaced: this.publicGrant(holder) };
  }

  /** The holder's link answered a heartbeat; a grant no longer current is ignored. */
  heartbeat(grant: ShareGrant): void {
    const holder = this.shares.get(grant.share)?.holder;
    if (holder?.link === grant.link) holder.lastSeen = this.options.now();
  }

  /** The grant's link closed: the share is free, unless it was granted again since. */
  release(grant: ShareGrant): void {
    const state = this.shares.get(grant.share);
    if (state?.holder?.link === grant.link) state.holder = undefined;
  }

  /** Whether `instance` holds `share` under `epoch` now: what it sends under anything else is stale. */
  holds(share: string, instance: string, epoch: number): boolean {
    const holder = this.shares.get(share)?.holder;
    return (
      holder !== undefined &&
      holder.instance === instance &&
      holder.epoch === epoch &&
      !this.lapsedAt(holder, this.options.now())
    );
  }

  /** The grants whose heartbeat lapsed: their links are to be closed. */
  lapsed(): ShareGrant[] {
    const now = this.options.now();
    return [...this.shares.values()]
      .map((state) => state.holder)
      .filter((holder): holder is ShareGrant & { lastSeen: number } => holder !== undefined)
      .filter((holder) => this.lapsedAt(holder, now))
      .map((holder) => this.publicGrant(holder));
  }

  status(share: string): ShareStatus {
    const now = this.options.now();
    const state = this.stateOf(share, now);
    const holder = state.holder !== undefined && !this.lapsedAt(state.holder, now) ? state.holder : undefined;
    return {
      share,
      holder: holder === undefined ? null : this.publicGrant(holder),
      linksInWindow: state.links.length,
      flapping: state.links.length >= this.flapLinks,
      refusedInWindow: state.refusals.length,
      refused: state.refusals.slice(-REFUSALS_NAMED),
    };
  }

  private stateOf(share: string, now: number): ShareState {
    let state = this.shares.get(share);
    if (state === undefined) {
      state = { holder: undefined, epoch: 0, lastInstance: undefined, links: [], refusals: [] };
      this.shares.set(share, state);
    }
    const since = now - this.windowMs;
    state.links = state.links.filter((at) => at > since);
    state.refusals = state.refusals.filter((refusal) => refusal.at > since);
    return state;
  }

  private lapsedAt(holder: { lastSeen: number }, now: number): boolean {
    return now - holder.lastSeen > this.options.lapseMs;
  }

  private publicGrant(holder: ShareGrant): ShareGrant {
    const { share, instance, epoch, link, since } = holder;
    return { share, instance, epoch, link, since };
  }
}
