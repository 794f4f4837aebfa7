import { RateLimitedError } from '@tps/domain';
import { DailyTransactionQuota, RECOUNT_MS } from './daily-transaction-quota';

const MERCHANT = { merchantId: 'acct_1', boundTerminalSerial: null, clockOffsetSeconds: 0 };
/** 2026-11-23 23:59:00 in Mexico City (UTC-6). */
const LAST_MINUTE = Date.UTC(2026, 10, 24, 5, 59, 0);

/** Transactions stored at these merchant-clock times, counted as the repository does. */
function setup(dated: number[], offsetMs = 0) {
  const time = { real: LAST_MINUTE };
  const counts = { dated, reads: 0 };
  const quota = new DailyTransactionQuota(
    3,
    {
      countCreatedBetween: async (_merchantId, fromMs, toMs) => {
        counts.reads += 1;
        return counts.dated.filter((at) => at >= fromMs && at < toMs).length;
      },
    },
    { now: () => new Date(time.real + offsetMs), offsetMs: () => offsetMs },
    () => time.real,
  );
  return { quota, counts, time };
}

describe('DailyTransactionQuota', () => {
  it('reads the stored count once a second, and counts what it admits meanwhile', async () => {
    const { quota, counts, time } = setup([LAST_MINUTE - 1000]);
    for (let i = 0; i < 2; i++) {
      expect(await quota.admit(MERCHANT)).toBeUndefined();
      counts.dated.push(LAST_MINUTE);
    }
    expect(counts.reads).toBe(1);
    const refused = await quota.admit(MERCHANT);
    // At the quota the count is read again, so a refusal is from what is stored.
    expect(counts.reads).toBe(2);
    expect(refused).toBeInstanceOf(RateLimitedError);
    // One minute to Mexico City midnight.
    expect(refused?.retryAfterSeconds).toBe(60);
    // Another replica's transactions, or a reset's erasure, show within a second.
    counts.dated = [];
    time.real += RECOUNT_MS;
    expect(await quota.admit(MERCHANT)).toBeUndefined();
    expect(counts.reads).toBe(3);
  });

  it("counts by the day of the account's sandbox clock", async () => {
    const today = [LAST_MINUTE - 3000, LAST_MINUTE - 2000, LAST_MINUTE - 1000];
    expect((await setup(today).quota.admit(MERCHANT))?.code).toBe('RATE-001');
    // The sandbox clock a minute ahead: its new day has begun, the real one has not.
    expect(await setup(today, 60_000).quota.admit(MERCHANT)).toBeUndefined();
  });

  it('refuses nothing when the count cannot be read: the request meets the storage itself', async () => {
    const quota = new DailyTransactionQuota(
      1,
      { countCreatedBetween: () => Promise.reject(new Error('database down')) },
      { now: () => new Date(LAST_MINUTE), offsetMs: () => 0 },
    );
    expect(await quota.admit(MERCHANT)).toBeUndefined();
  });

  it('holds nobody without a quota', async () => {
    const quota = new DailyTransactionQuota(
      undefined,
      { countCreatedBetween: () => Promise.reject(new Error('never read')) },
      { now: () => new Date(LAST_MINUTE), offsetMs: () => 0 },
    );
    expect(await quota.admit(MERCHANT)).toBeUndefined();
  });
});
