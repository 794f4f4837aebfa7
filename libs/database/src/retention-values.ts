import type { SweptMerchant } from './ports/retention-rows';

/** A merchants row as both stores read it back (a bigint may come as a string). */
export interface MerchantRow {
  merchant_id: string;
  clock_offset_seconds: number | string;
  last_active_at_ms: number | string | null;
}

export function merchantOf(row: MerchantRow): SweptMerchant {
  return {
    merchantId: row.merchant_id,
    clockOffsetSeconds: Number(row.clock_offset_seconds),
    lastActiveAtMs: row.last_active_at_ms === null ? null : Number(row.last_active_at_ms),
  };
}

/** A print job's creation is stored as an ISO date: `beforeMs` as one, within the dates it can write. */
export function printJobsBefore(beforeMs: number): string {
  return new Date(Math.min(beforeMs, 253402300799999)).toISOString();
}
