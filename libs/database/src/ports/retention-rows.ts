/** A merchant as a retention sweep reads it. */
export interface SweptMerchant {
  merchantId: string;
  /** Its sandbox clock's offset from real time. */
  clockOffsetSeconds: number;
  /** Its last signed request, in real time; null before any was stamped. */
  lastActiveAtMs: number | null;
}

/** What a retention sweep reads and removes (contract, "Retention"). */
export abstract class RetentionRows {
  /** Stamps `nowMs` as the last activity of the merchants whose ids begin with `prefix` and have none. */
  abstract startIdleTime(prefix: string, nowMs: number): Promise<void>;
  /** At most `limit` merchants whose ids come after `after`, in their ids' order. */
  abstract merchants(after: string, limit: number): Promise<SweptMerchant[]>;
  /**
   * Removes, in one write, at most `limit` of the merchant's transactions made before `beforeMs`
   * (on its clock) with their events and webhook deliveries and attempts, and at most `limit` of
   * its print jobs made before then; resolves the larger of the two numbers.
   */
  abstract removeBatch(merchantId: string, beforeMs: number, limit: number): Promise<number>;
}
