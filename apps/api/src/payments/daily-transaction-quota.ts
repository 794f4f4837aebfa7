import { DAY_MS, mexicoCityTimeOfDayMs, RateLimitedError } from '@tps/domain';
import type { MerchantTime, OperationMerchant } from './operation-ports';

/** The transactions stored for a merchant, dated by its clock. */
export interface StoredTransactionCount {
  countCreatedBetween(merchantId: string, fromMs: number, toMs: number): Promise<number>;
}

/**
 * How long a count read from storage is trusted: others' transactions (another replica's) reach
 * it within this, and a reset's erasure too. A count that reaches the quota is read again first.
 */
export const RECOUNT_MS = 1000;

const SWEEP_EVERY_MS = 60_000;

interface DayCount {
  dayStartMs: number;
  count: number;
  readAtMs: number;
}

/**
 * The quota of transactions per day of each account (contract, "Hosted mode"), counted from what
 * is stored, by the Mexico City day of the account's sandbox clock (the day its void cut-off and
 * `local` time read). A count is read at most once a second per account, then kept up by the
 * transactions this process admits, so a charge costs no read of its own; at the quota it is
 * read again, so a refusal is always from what is stored.
 */
export class DailyTransactionQuota {
  private readonly counts = new Map<string, DayCount>();
  private nextSweepAt = 0;

  constructor(
    private readonly perDay: number | undefined,
    private readonly stored: StoredTransactionCount,
    private readonly clock: MerchantTime,
    private readonly realNow: () => number = Date.now,
  ) {}

  /** Counts one more transaction of the merchant today; the refusal to throw when it is over. */
  async admit(merchant: OperationMerchant): Promise<RateLimitedError | undefined> {
    const perDay = this.perDay;
    if (perDay === undefined) return undefined;
    const at = this.clock.now(merchant).getTime();
    const dayStartMs = at - mexicoCityTimeOfDayMs(at);
    const now = this.realNow();
    if (now >= this.nextSweepAt) this.sweep(now);
    let known = this.counts.get(merchant.merchantId);
    if (
      known === undefined ||
      known.dayStartMs !== dayStartMs ||
      known.count >= perDay ||
      now - known.readAtMs >= RECOUNT_MS
    ) {
      const count = await this.stored
        .countCreatedBetween(merchant.merchantId, dayStartMs, dayStartMs + DAY_MS)
        .catch(() => undefined);
      // Storage that cannot be read cannot be written either: the request's own write answers
      // that, as it does for every request (contract §19), rather than a quota read.
      if (count === undefined) return undefined;
      known = { dayStartMs, count, readAtMs: now };
      this.counts.set(merchant.merchantId, known);
    }
    if (known.count >= perDay) {
      const nextDayInSeconds = Math.max(1, Math.ceil((dayStartMs + DAY_MS - at) / 1000));
      return new RateLimitedError(
        nextDayInSeconds,
        `this account has made its ${perDay} transactions of the day (Mexico City day of its sandbox clock), the quota of this sandbox`,
      );
    }
    known.count += 1;
    return undefined;
  }

  /** Counts older than RECOUNT_MS would be read again anyway: dropped, so gone accounts leave none. */
  private sweep(now: number): void {
    this.nextSweepAt = now + SWEEP_EVERY_MS;
    for (const [merchantId, known] of this.counts) {
      if (now - known.readAtMs >= RECOUNT_MS) this.counts.delete(merchantId);
    }
  }
}
