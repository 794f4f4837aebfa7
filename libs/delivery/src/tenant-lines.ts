import { FairLines, type FairLinesOptions } from './fair-lines';

interface Tenant<T> {
  lines: FairLines<T>;
  inFlight: number;
  /** The turn it was last handed an item at: among tenants with as many in flight, the longest unserved goes first. */
  servedAt: number;
}

export interface TenantLinesOptions<T> extends Omit<FairLinesOptions<T>, 'shareOf'> {
  /** Items in flight at once, every tenant's together. */
  slots: number;
  /** The share now of a tenant's destination, when it is less than `share`. */
  shareOf?: (tenant: string, destination: string) => number;
}

/**
 * Due work in `slots`, shared out per tenant (a merchant) first, then per destination within the
 * tenant (FairLines): the next item to start comes from the tenant with the fewest items in
 * flight that has one that may start. A tenant with many destinations, or with destinations that
 * hang, thus never takes a free slot while another tenant with fewer in flight waits for one, and
 * within a tenant no destination holds more than its share.
 *
 * The last `share` free slots are a reserve: they go only to a tenant with fewer than `share` in
 * flight. A tenant that holds many thus cannot take every slot before another tenant's work is
 * even due, and a tenant arriving later starts its first destination's whole share at once
 * instead of waiting for a slot to free (a hanging receiver's timeout). A tenant alone holds at
 * most the larger of `slots - share` and `share`: while the share is at most half the slots, the
 * reserve costs it `share` of them. Contract, webhook delivery, "Fairness".
 */
export class TenantLines<T> {
  private readonly tenants = new Map<string, Tenant<T>>();
  private inFlight = 0;
  private turn = 0;

  constructor(private readonly options: TenantLinesOptions<T>) {
    // With no slot at all nothing would ever start.
    if (!Number.isInteger(options.slots) || options.slots < 1) {
      throw new RangeError(`slots must be a positive integer, not ${options.slots}`);
    }
  }

  /** Puts a due item in its tenant's line to `destination`. */
  add(tenant: string, destination: string, item: T): void {
    let entry = this.tenants.get(tenant);
    if (entry === undefined) {
      const { shareOf } = this.options;
      const lines = new FairLines<T>({
        ...this.options,
        shareOf: shareOf === undefined ? undefined : (to) => shareOf(tenant, to),
      });
      entry = { lines, inFlight: 0, servedAt: 0 };
      this.tenants.set(tenant, entry);
    }
    entry.lines.add(destination, item);
  }

  /** The next item to start, counted in flight until `ended`; undefined when none may start. */
  take(): { tenant: string; destination: string; item: T } | undefined {
    const { slots, share: reserve } = this.options;
    const free = slots - this.inFlight;
    if (free <= 0) return undefined;
    const byTurn = [...this.tenants].sort(
      ([, a], [, b]) => a.inFlight - b.inFlight || a.servedAt - b.servedAt,
    );
    for (const [tenant, entry] of byTurn) {
      // The rest hold as many or more: none of them may take from the reserve either.
      if (free <= reserve && entry.inFlight >= reserve) return undefined;
      const next = entry.lines.take();
      if (next === undefined) {
        // Its lines held only items gone stale: nothing left of it.
        if (entry.inFlight === 0 && entry.lines.isEmpty) this.tenants.delete(tenant);
        continue;
      }
      entry.inFlight += 1;
      this.inFlight += 1;
      this.turn += 1;
      entry.servedAt = this.turn;
      return { tenant, ...next };
    }
    return undefined;
  }

  /** An item taken for the tenant's `destination` is no longer in flight. */
  ended(tenant: string, destination: string): void {
    const entry = this.tenants.get(tenant);
    if (entry === undefined || entry.inFlight === 0) return;
    entry.inFlight -= 1;
    this.inFlight -= 1;
    entry.lines.ended(destination);
    if (entry.inFlight === 0 && entry.lines.isEmpty) this.tenants.delete(tenant);
  }

  inFlightOf(tenant: string): number {
    return this.tenants.get(tenant)?.inFlight ?? 0;
  }

  inFlightTo(tenant: string, destination: string): number {
    return this.tenants.get(tenant)?.lines.inFlightTo(destination) ?? 0;
  }
}
