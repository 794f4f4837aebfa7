/** Attempts in a row that timed out, after which a destination is held to one attempt in flight. */
export const CUT_AFTER_TIMEOUTS = 3;

/** Destinations remembered as timing out, at most; the one that timed out longest ago goes first. */
const REMEMBERED = 4096;

/** A merchant's destination, as DestinationHealth knows it: one merchant's timeouts cut only its own share. */
export const healthKey = (tenant: string, destination: string): string => `${tenant} ${destination}`;

/**
 * Which destinations keep timing out (contract, "Webhook delivery", Fairness: a hanging
 * receiver costs its owner, not the neighbours). After CUT_AFTER_TIMEOUTS attempts in a row that
 * timed out (`cutAfter`), the destination's share of attempts in flight is cut to one, so it holds one slot
 * for the timeout instead of its whole share; the first attempt it answers gives the share back.
 */
export class DestinationHealth {
  /** Timeouts in a row, per destination; a destination that answered is not kept. */
  private readonly timeouts = new Map<string, number>();

  constructor(
    private readonly share: number,
    private readonly cutAfter = CUT_AFTER_TIMEOUTS,
  ) {}

  /** Attempts `destination` may have in flight now. */
  shareOf(destination: string): number {
    return (this.timeouts.get(destination) ?? 0) >= this.cutAfter ? 1 : this.share;
  }

  /** An attempt to `destination` ended: timed out, or answered in any way (an error status too). */
  ended(destination: string, timedOut: boolean): void {
    const inARow = this.timeouts.get(destination) ?? 0;
    this.timeouts.delete(destination);
    if (!timedOut) return;
    if (this.timeouts.size >= REMEMBERED) {
      const oldest = this.timeouts.keys().next();
      if (oldest.done !== true) this.timeouts.delete(oldest.value);
    }
    this.timeouts.set(destination, inARow + 1);
  }
}
