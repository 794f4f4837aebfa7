import type { PendingDelivery, Timers } from './dispatcher';

/**
 * The outbox's leases, as the store keeps them: one owner per pending delivery, until a time.
 * A delivery is a transaction webhook's (PendingDelivery) or another outbox's item.
 */
export interface LeaseStore<T = PendingDelivery> {
  /**
   * Leases to this process, until `until`, up to `limit` pending deliveries that no process holds
   * (never held, given back, or whose lease, another process's, ended before `now`: a process keeps
   * its own by renewing them, and may not attempt them unrenewed), each the head of its
   * transaction's queue: no earlier delivery of its transaction is still pending. Commits at once.
   */
  claim(now: number, until: number, limit: number): Promise<T[]>;
  /** Extends every lease this process holds to `until`; the ids of the deliveries it still holds. */
  renew(until: number): Promise<string[]>;
  /** Gives back every lease this process holds, so that another process takes them at once. */
  release(): Promise<void>;
}

/** What the leases drive: the dispatcher of this process. */
export interface LeasedDispatcher<T = PendingDelivery> {
  add(delivery: T): void;
  drop(ids: Iterable<string>): void;
  heldIds(): string[];
  /**
   * How many more deliveries it could start now: its free slots less those it holds that are due
   * and wait for one (below 0 when more wait than slots are free).
   */
  room(): number;
}

/**
 * Deliveries a claim takes beyond the dispatcher's room: what its next free slots start without
 * waiting for the next claim, and, while it has no room, a few for merchants arriving then
 * (ranked first in the claim, they take the reserve). Small, so that a dead process's backlog is
 * spread over the live processes as each can start it, not taken by whichever claims first.
 */
export const CLAIM_AHEAD = 8;

export interface DeliveryLeasesDeps<T = PendingDelivery> {
  store: LeaseStore<T>;
  leaseMs: number;
  /** How often to look for deliveries no process holds. */
  claimEveryMs: number;
  /**
   * Deliveries claimed in one statement, at most: fewer while the dispatcher has less room (its
   * room and CLAIM_AHEAD). A claim that takes the whole batch looks again at once.
   */
  claimBatch: number;
  now: () => number;
  timers: Timers;
  onError: (message: string) => void;
  /**
   * The queue a delivery is the head of, where deliveries go out in order: once it settles, the
   * next one is claimed at once (see `settled`). None: every delivery stands alone.
   */
  orderKeyOf?: (delivery: T) => string;
}

/**
 * Keeps this process's share of a shared outbox: renews what it holds every third of a lease,
 * claims what no live process holds (a dead process's deliveries once their leases end, or those
 * another gave back) as far as it can start them soon, and gives everything back at a stop. A
 * delivery claimed is the head of its transaction; once it settles, the transaction's next one is
 * claimed at once, so order holds.
 */
export class DeliveryLeases<T = PendingDelivery> {
  private dispatcher: LeasedDispatcher<T> | undefined;
  /** Every lease this process holds runs at least until then. */
  private heldUntil = -Infinity;
  private readonly timers = new Map<'renew' | 'claim', { handle: unknown; at: number }>();
  private running: Promise<void> = Promise.resolve();
  private stopped = true;
  /** Transactions whose deliveries came by a claim: their next delivery is claimed, not staged here. */
  private readonly claimedKeys = new Set<string>();

  constructor(private readonly deps: DeliveryLeasesDeps<T>) {}

  /**
   * Call just before the store adopts or stages any delivery for this process: every lease
   * written from then on runs at least a lease from now.
   */
  begin(dispatcher: LeasedDispatcher<T>): void {
    this.dispatcher = dispatcher;
    this.heldUntil = this.deps.now() + this.deps.leaseMs;
    this.stopped = false;
    this.arm('renew', this.deps.leaseMs / 3);
    this.arm('claim', 0);
  }

  /** Whether every lease this process holds is known to run past now. */
  held(): boolean {
    return this.deps.now() < this.heldUntil;
  }

  /** A transaction's last delivery held here settled: if it came by a claim, claim its next now. */
  settled(orderKey: string): void {
    if (this.claimedKeys.delete(orderKey)) this.arm('claim', 0);
  }

  /** Stops renewing and claiming; call before the dispatcher stops. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers.values()) this.deps.timers.clear(timer.handle);
    this.timers.clear();
    await this.running;
  }

  /** Gives every lease back; call once the dispatcher has stopped, so nothing is in flight. */
  async release(): Promise<void> {
    await this.deps.store.release();
    this.heldUntil = -Infinity;
  }

  private arm(kind: 'renew' | 'claim', delayMs: number): void {
    if (this.stopped) return;
    const at = this.deps.now() + delayMs;
    const armed = this.timers.get(kind);
    if (armed !== undefined && armed.at <= at) return;
    if (armed !== undefined) this.deps.timers.clear(armed.handle);
    const handle = this.deps.timers.set(() => {
      this.timers.delete(kind);
      this.running = this.running.then(() => (kind === 'renew' ? this.renew() : this.claim()));
    }, delayMs);
    this.timers.set(kind, { handle, at });
  }

  private async renew(): Promise<void> {
    const dispatcher = this.dispatcher;
    if (this.stopped || dispatcher === undefined) return;
    const startedAt = this.deps.now();
    // Only what was held before the renewal began: a delivery staged meanwhile is held, though
    // the renewal may not have seen it.
    const before = dispatcher.heldIds();
    try {
      const still = new Set(await this.deps.store.renew(startedAt + this.deps.leaseMs));
      this.heldUntil = startedAt + this.deps.leaseMs;
      dispatcher.drop(before.filter((id) => !still.has(id)));
      this.arm('renew', this.deps.leaseMs / 3);
    } catch (error) {
      this.deps.onError(`renewing delivery leases: ${String(error)}; tried again shortly`);
      this.arm('renew', Math.min(this.deps.claimEveryMs, this.deps.leaseMs / 3));
    }
  }

  private async claim(): Promise<void> {
    const dispatcher = this.dispatcher;
    if (this.stopped || dispatcher === undefined) return;
    const now = this.deps.now();
    const limit = Math.min(this.deps.claimBatch, Math.max(0, dispatcher.room()) + CLAIM_AHEAD);
    let claimed: T[] = [];
    try {
      claimed = await this.deps.store.claim(now, now + this.deps.leaseMs, limit);
    } catch (error) {
      this.deps.onError(`claiming deliveries: ${String(error)}; tried again shortly`);
    }
    const { orderKeyOf } = this.deps;
    for (const delivery of claimed) {
      if (orderKeyOf !== undefined) this.claimedKeys.add(orderKeyOf(delivery));
      dispatcher.add(delivery);
    }
    this.arm('claim', claimed.length >= this.deps.claimBatch ? 0 : this.deps.claimEveryMs);
  }
}
