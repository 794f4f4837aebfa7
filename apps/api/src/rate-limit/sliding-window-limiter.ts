/**
 * The times a key was admitted, oldest first, in a ring that grows by doubling up to the limit:
 * admitting and forgetting are O(1) and allocate nothing once the ring has its size.
 */
class AdmissionLog {
  private times: Float64Array;
  private head = 0;
  count = 0;

  constructor(private readonly limit: number) {
    this.times = new Float64Array(Math.min(16, limit));
  }

  get oldest(): number {
    return this.times[this.head];
  }

  get newest(): number {
    return this.times[(this.head + this.count - 1) % this.times.length];
  }

  forgetUntil(expired: number): void {
    while (this.count > 0 && this.times[this.head] <= expired) {
      this.head = (this.head + 1) % this.times.length;
      this.count -= 1;
    }
  }

  admit(at: number): void {
    if (this.count === this.times.length) this.grow();
    this.times[(this.head + this.count) % this.times.length] = at;
    this.count += 1;
  }

  private grow(): void {
    const larger = new Float64Array(Math.min(this.times.length * 2, this.limit));
    for (let i = 0; i < this.count; i++) larger[i] = this.times[(this.head + i) % this.times.length];
    this.times = larger;
    this.head = 0;
  }
}

/**
 * At most `limit` admissions per key in any `windowMs` (a sliding log). A refused request is not
 * counted, so a caller that waits the answer's delay is admitted. Keys idle for a whole window
 * are dropped once per window, without a timer.
 *
 * Why not the throttler library's storage: it filters the whole window and spreads it into
 * `Math.min` on every request, so each request cost grew with the window's traffic, and from
 * about 125,000 requests in one window (a raised limit, a long window) every request failed with
 * a RangeError.
 */
export class SlidingWindowLimiter {
  private readonly logs = new Map<string, AdmissionLog>();
  private nextSweepAt: number;

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {
    this.nextSweepAt = now() + windowMs;
  }

  /**
   * Admits one request of `key`; if the window is full, the whole seconds until it would be.
   * `elsewhere`: admissions of the key in this window that other replicas made, which count too.
   */
  take(key: string, elsewhere = 0): { admitted: true } | { admitted: false; retryAfterSeconds: number } {
    const now = this.now();
    if (now >= this.nextSweepAt) this.sweep(now);
    let log = this.logs.get(key);
    if (log === undefined) {
      log = new AdmissionLog(this.limit);
      this.logs.set(key, log);
    }
    log.forgetUntil(now - this.windowMs);
    if (log.count + elsewhere >= this.limit) {
      // Without an admission of its own, the others' oldest is not known here: a whole window.
      const freedAt = log.count > 0 ? log.oldest + this.windowMs : now + this.windowMs;
      return { admitted: false, retryAfterSeconds: Math.max(1, Math.ceil((freedAt - now) / 1000)) };
    }
    log.admit(now);
    return { admitted: true };
  }

  /** How many keys are tracked (for tests of the sweep). */
  get keyCount(): number {
    return this.logs.size;
  }

  private sweep(now: number): void {
    this.nextSweepAt = now + this.windowMs;
    for (const [key, log] of this.logs) {
      if (log.count === 0 || log.newest <= now - this.windowMs) this.logs.delete(key);
    }
  }
}
