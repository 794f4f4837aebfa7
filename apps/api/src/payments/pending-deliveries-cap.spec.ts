import { allOf, PENDING_RECOUNT_MS, PendingDeliveriesCap } from './pending-deliveries-cap';

const MERCHANT = { merchantId: 'acct_1', boundTerminalSerial: null, clockOffsetSeconds: 0 };

class Stored {
  pending = 0;
  reads = 0;
  async countPending(): Promise<number> {
    this.reads += 1;
    return Promise.resolve(this.pending);
  }
}

describe('the cap on pending webhook deliveries (contract §22)', () => {
  it('refuses a new operation with 409 CAP-001 naming the cap once the account holds that many', async () => {
    const stored = new Stored();
    let now = 0;
    const refused: string[] = [];
    const cap = new PendingDeliveriesCap(
      3,
      stored,
      () => now,
      (name) => refused.push(name),
    );
    stored.pending = 2;
    expect(await cap.admit(MERCHANT)).toBeUndefined();
    stored.pending = 3;
    now += PENDING_RECOUNT_MS;
    const refusal = await cap.admit(MERCHANT);
    expect(refusal).toMatchObject({ status: 409, code: 'CAP-001', type: 'CAPACITY', retryAfterSeconds: 60 });
    expect(refusal?.message).toContain('pending_deliveries = 3');
    expect(refused).toEqual(['acct_1']);
  });

  it('reads the count at most once a second, and again at the cap before refusing', async () => {
    const stored = new Stored();
    let now = 0;
    const cap = new PendingDeliveriesCap(3, stored, () => now);
    await cap.admit(MERCHANT);
    await cap.admit(MERCHANT);
    expect(stored.reads).toBe(1);
    stored.pending = 3;
    now += PENDING_RECOUNT_MS;
    expect(await cap.admit(MERCHANT)).toBeDefined();
    // Settled meanwhile: the refusal is read again, not remembered.
    stored.pending = 1;
    expect(await cap.admit(MERCHANT)).toBeUndefined();
  });

  it('has none when unset, and answers the first refusal of several quotas', async () => {
    const stored = new Stored();
    stored.pending = 1_000_000;
    expect(await new PendingDeliveriesCap(undefined, stored).admit(MERCHANT)).toBeUndefined();
    expect(stored.reads).toBe(0);
    const both = allOf([new PendingDeliveriesCap(undefined, stored), new PendingDeliveriesCap(5, stored)]);
    expect(await both.admit(MERCHANT)).toMatchObject({ code: 'CAP-001' });
  });
});
