import { SlidingWindowLimiter } from './sliding-window-limiter';

/** This replica's admissions of one key in one time bucket, not yet told to the others. */
export interface BucketCount {
  key: string;
  bucket: number;
  admitted: number;
}

/** Where replicas tell each other their admissions (PostgreSQL's rate_limit_counts). */
export interface AdmissionExchange {
  /**
   * Adds this replica's new admissions, then answers the other replicas' admissions per key in
   * the buckets from `fromBucket` on; forgets buckets before it.
   */
  exchange(replica: string, added: BucketCount[], fromBucket: number): Promise<Map<string, number>>;
}

/** Buckets per window: the others' admissions age out one bucket (a tenth of a window) at a time. */
const BUCKETS_PER_WINDOW = 10;
/** How often a replica that admits nothing learns the others' counts, so that it starts from them. */
export const IDLE_SYNC_MS = 1000;

/**
 * A limit that replicas on one database hold between them (contract, "Several
 * replicas"). Each replica admits from its own sliding window plus what the others admitted as of
 * its last exchange, so a request costs no database round trip: it exchanges counts in one batch
 * every `syncMs` while it admits, every IDLE_SYNC_MS otherwise. How exact: beyond the limit, the
 * cluster may admit what the replicas admitted since their last exchanges (about `syncMs` of
 * traffic, or a second's for a replica that was idle), and the others' admissions age out by
 * buckets of a tenth of the window. `takeExact` exchanges first, for a limit whose requests are
 * rare enough to pay a round trip each. An exchange that fails changes nothing: its counts go with
 * the next one.
 */
export class SharedWindowLimiter {
  private readonly local: SlidingWindowLimiter;
  private readonly bucketMs: number;
  private pending = new Map<string, BucketCount>();
  private elsewhere = new Map<string, number>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private idle = true;
  private stopped = false;

  constructor(
    limit: number,
    private readonly windowMs: number,
    private readonly shared: { exchange: AdmissionExchange; replica: string; syncMs: number },
    private readonly now: () => number = Date.now,
  ) {
    this.local = new SlidingWindowLimiter(limit, windowMs, now);
    this.bucketMs = Math.max(1, Math.floor(windowMs / BUCKETS_PER_WINDOW));
    this.schedule(IDLE_SYNC_MS);
  }

  take(key: string): { admitted: true } | { admitted: false; retryAfterSeconds: number } {
    const taken = this.local.take(key, this.elsewhere.get(key) ?? 0);
    if (taken.admitted) this.count(key);
    return taken;
  }

  /** As `take`, from the others' counts as of now: one exchange first. */
  async takeExact(key: string): Promise<{ admitted: true } | { admitted: false; retryAfterSeconds: number }> {
    await this.sync();
    return this.take(key);
  }

  /** Sends what is left to tell and stops exchanging (the replica is stopping). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.size > 0) await this.sync();
  }

  /** One exchange now (tests; otherwise the timer runs them). */
  async sync(): Promise<void> {
    const added = [...this.pending.values()];
    this.pending = new Map();
    const fromBucket = Math.floor((this.now() - this.windowMs) / this.bucketMs) + 1;
    try {
      this.elsewhere = await this.shared.exchange.exchange(this.shared.replica, added, fromBucket);
    } catch {
      // The counts go with the next exchange; admission goes on from what is known.
      for (const count of added) this.add(count.key, count.bucket, count.admitted);
    }
  }

  private count(key: string): void {
    this.add(key, Math.floor(this.now() / this.bucketMs), 1);
    // Told within `syncMs`, not at the next idle exchange.
    if (this.idle) this.schedule(this.shared.syncMs);
  }

  private add(key: string, bucket: number, admitted: number): void {
    const id = `${bucket}:${key}`;
    const count = this.pending.get(id);
    if (count === undefined) this.pending.set(id, { key, bucket, admitted });
    else count.admitted += admitted;
  }

  private schedule(ms: number): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.stopped) return;
    this.idle = ms !== this.shared.syncMs;
    this.timer = setTimeout(() => void this.tick(), ms);
    this.timer.unref();
  }

  /** Exchanges every `syncMs` while anyone admits, every IDLE_SYNC_MS otherwise. */
  private async tick(): Promise<void> {
    this.timer = undefined;
    const active = this.pending.size > 0 || this.elsewhere.size > 0;
    await this.sync();
    if (this.timer === undefined) this.schedule(active ? this.shared.syncMs : IDLE_SYNC_MS);
  }
}
