/** The longest an answered operation's events wait for the service's `stored` notice. */
export const NOTICE_WAIT_MAX_MS = 5000;
/** Replies remembered at most while their notices are awaited: a service that never says drops the oldest. */
const REMEMBERED = 1024;

/**
 * How long the service has lately taken to say it stored an operation's reply (its `stored`
 * notice), and so how long the reply's events stay off the uplink once the reply is sent: twice
 * that, between `floorMs` and `ceilingMs`. With its database a network hop away the service takes
 * longer than a fixed hold to store a reply; each event would then also go up the uplink, a
 * duplicate it must read and set aside, on the same pool the charges wait for (docs/scaling.md,
 * "Pool size").
 */
export class NoticeWait {
  private readonly repliedAt = new Map<string, number>();
  private averageMs: number | undefined;

  constructor(
    private readonly floorMs: number,
    private readonly ceilingMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** The reply of the operation on transaction `key` is on its way. */
  replied(key: string): void {
    this.repliedAt.delete(key);
    this.repliedAt.set(key, this.now());
    if (this.repliedAt.size > REMEMBERED) this.repliedAt.delete(this.repliedAt.keys().next().value as string);
  }

  /** The service said it stored the events of transaction `key`. */
  noticed(key: string): void {
    const at = this.repliedAt.get(key);
    if (at === undefined) return;
    this.repliedAt.delete(key);
    const tookMs = this.now() - at;
    // A moving average: one slow notice lengthens the hold, a few quick ones shorten it again.
    this.averageMs = this.averageMs === undefined ? tookMs : this.averageMs + (tookMs - this.averageMs) / 4;
  }

  holdMs(): number {
    return Math.min(this.ceilingMs, Math.max(this.floorMs, 2 * (this.averageMs ?? 0)));
  }
}
