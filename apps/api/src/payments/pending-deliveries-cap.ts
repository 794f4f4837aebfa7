import { CapReachedError } from '@tps/domain';
import type { OperationMerchant, TransactionQuota } from './operation-ports';

/** The webhook deliveries of a merchant not yet delivered nor failed for good. */
export interface PendingDeliveryCount {
  countPending(merchantId: string): Promise<number>;
}

/** How long a count read from storage is trusted; one at the cap is read again before refusing. */
export const PENDING_RECOUNT_MS = 1000;
/** Retries settle deliveries within minutes (60 s apart at most): worth a try a minute on. */
const RETRY_SECONDS = 60;

/**
 * The hard cap on an account's pending webhook deliveries (contract §22): an account whose
 * receivers keep failing or hanging starts no new operation (409 CAP-001) until some settle, so
 * that its backlog stays bounded. Counted from what is stored, read at most once a second per
 * account and read again at the cap, so a refusal is always from what is stored.
 */
export class PendingDeliveriesCap implements TransactionQuota {
  private readonly counts = new Map<string, { count: number; readAtMs: number }>();

  constructor(
    private readonly cap: number | undefined,
    private readonly stored: PendingDeliveryCount,
    private readonly now: () => number = Date.now,
    private readonly refused: (merchantId: string) => void = () => undefined,
  ) {}

  async admit(merchant: OperationMerchant): Promise<CapReachedError | undefined> {
    const cap = this.cap;
    if (cap === undefined) return undefined;
    const now = this.now();
    let known = this.counts.get(merchant.merchantId);
    if (known === undefined || known.count >= cap || now - known.readAtMs >= PENDING_RECOUNT_MS) {
      // Storage that cannot be read refuses nothing here: the request's own write answers it.
      const count = await this.stored.countPending(merchant.merchantId).catch(() => undefined);
      if (count === undefined) return undefined;
      known = { count, readAtMs: now };
      if (this.counts.size > 10_000) this.counts.clear();
      this.counts.set(merchant.merchantId, known);
    }
    if (known.count < cap) return undefined;
    this.refused(merchant.merchantId);
    return new CapReachedError(
      'CAP-001',
      'pending_deliveries',
      cap,
      `this account has ${known.count} webhook deliveries pending, its cap (pending_deliveries = ${cap}): no new operation until its receivers take some (see GET /sandbox/deliveries); retry after ${RETRY_SECONDS} s`,
      RETRY_SECONDS,
    );
  }
}

/** Quotas checked in turn: the first refusal is the answer. */
export function allOf(quotas: readonly TransactionQuota[]): TransactionQuota {
  return {
    admit: async (merchant) => {
      for (const quota of quotas) {
        const refusal = await quota.admit(merchant);
        if (refusal !== undefined) return refusal;
      }
      return undefined;
    },
  };
}
