import type { AnsweredRequest } from '@tps/http';

/** One request as its merchant reads it back (`GET /sandbox/requests`). */
export interface RequestRecord {
  at: string;
  method: string;
  path: string;
  status: number;
  duration_ms: number;
  request_id: string;
}

/** The most recent requests kept per merchant. */
export const REQUESTS_PER_MERCHANT = 100;
/** Merchants whose requests are kept at once; the one heard from least recently goes first. */
const MAX_MERCHANTS = 10_000;

/**
 * A merchant's recent signed requests, as this replica answered them (docs/contract.md, "Request
 * ids"): bounded in memory, never a header or a body, so nothing secret is kept.
 */
export class MerchantRequestLog {
  private readonly byMerchant = new Map<string, RequestRecord[]>();

  record(merchantId: string, answered: AnsweredRequest): void {
    const records = this.byMerchant.get(merchantId) ?? [];
    // Re-inserted, so the Map's order is least recently heard from first.
    this.byMerchant.delete(merchantId);
    this.byMerchant.set(merchantId, records);
    records.push({
      at: answered.at.toISOString(),
      method: answered.method,
      path: answered.path,
      status: answered.status,
      duration_ms: answered.durationMs,
      request_id: answered.requestId ?? '',
    });
    if (records.length > REQUESTS_PER_MERCHANT) records.shift();
    if (this.byMerchant.size > MAX_MERCHANTS) {
      this.byMerchant.delete(this.byMerchant.keys().next().value as string);
    }
  }

  /** Newest first. */
  recent(merchantId: string): RequestRecord[] {
    return [...(this.byMerchant.get(merchantId) ?? [])].reverse();
  }
}
