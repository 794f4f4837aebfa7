import { DestinationHealth, healthKey } from './destination-health';
import { TenantLines } from './tenant-lines';
import { AttemptAbandoned } from './webhook-post';

export interface TenantSlotsOptions {
  /** Attempts in flight at once, every merchant's together. */
  slots: number;
  /** Attempts in flight at once to one destination of a merchant. */
  share: number;
  /** Timeouts in a row before a merchant's destination is held to one in flight (DestinationHealth). */
  cutAfterTimeouts?: number;
  /** An attempt timed out; `cut`: the merchant's destination is held to one attempt in flight from now on. */
  onTimedOut?: (tenant: string, destination: string, cut: boolean) => void;
}

/** A slot taken: given back once, by the attempt's end or by no attempt being made in it. */
export interface HeldSlot {
  /** The attempt made in the slot ended: answered (any status, or a failure) or timed out. */
  ended(timedOut: boolean): void;
  /** No attempt was made in the slot. */
  release(): void;
}

interface Waiter {
  ticket: number;
  grant: (slot: HeldSlot) => void;
  abandon: () => void;
}

/**
 * Slots for one attempt each, for work that is made at once and never retried (print callbacks):
 * at most `slots` in flight, a free slot going to the merchant with the fewest in flight first,
 * then to its destination with the fewest (TenantLines), first come first served among equals; a
 * merchant's destination holds at most `share`, one whose attempts keep timing out only one, and
 * a merchant with `share` or more in flight takes none of the last `share` free slots (TenantLines'
 * reserve; contract, "Webhook delivery", Fairness).
 */
export class TenantSlots {
  private readonly lines: TenantLines<Waiter>;
  private readonly health: DestinationHealth;
  private readonly waiting = new Set<Waiter>();
  private tickets = 0;
  private stopped = false;

  constructor(private readonly options: TenantSlotsOptions) {
    this.health = new DestinationHealth(options.share, options.cutAfterTimeouts);
    this.lines = new TenantLines<Waiter>({
      slots: options.slots,
      share: options.share,
      shareOf: (tenant, destination) => this.health.shareOf(healthKey(tenant, destination)),
      dueAt: (waiter) => waiter.ticket,
      isCurrent: (waiter) => this.waiting.has(waiter),
    });
  }

  /** A slot for an attempt of `tenant` to `destination`, once one is its; AttemptAbandoned once stopped. */
  take(tenant: string, destination: string): Promise<HeldSlot> {
    if (this.stopped) return Promise.reject(new AttemptAbandoned());
    return new Promise<HeldSlot>((resolve, reject) => {
      this.tickets += 1;
      const waiter: Waiter = {
        ticket: this.tickets,
        grant: resolve,
        abandon: () => reject(new AttemptAbandoned()),
      };
      this.waiting.add(waiter);
      this.lines.add(tenant, destination, waiter);
      this.pump();
    });
  }

  /** Nothing waiting gets a slot any more: each waiter is told AttemptAbandoned (the service is stopping). */
  stop(): void {
    this.stopped = true;
    for (const waiter of this.waiting) waiter.abandon();
    this.waiting.clear();
  }

  private pump(): void {
    for (let next = this.lines.take(); next !== undefined; next = this.lines.take()) {
      this.waiting.delete(next.item);
      next.item.grant(this.held(next.tenant, next.destination));
    }
  }

  private held(tenant: string, destination: string): HeldSlot {
    let given = false;
    const giveBack = (): void => {
      this.lines.ended(tenant, destination);
      this.pump();
    };
    return {
      ended: (timedOut) => {
        if (given) return;
        given = true;
        const key = healthKey(tenant, destination);
        const before = this.health.shareOf(key);
        // Before the slot frees, so that the destination's line is given its new share.
        this.health.ended(key, timedOut);
        if (timedOut)
          this.options.onTimedOut?.(tenant, destination, before > 1 && this.health.shareOf(key) === 1);
        giveBack();
      },
      release: () => {
        if (given) return;
        given = true;
        giveBack();
      },
    };
  }
}
