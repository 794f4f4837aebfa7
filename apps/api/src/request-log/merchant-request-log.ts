import type { AnsweredRequest } from '@tps/http';
import { RequestLog, recordOf, REQUESTS_PER_MERCHANT, type RequestRecord } from './request-log';

/** Merchants whose requests are kept at once; the one heard from least recently goes first. */
const MAX_MERCHANTS = 10_000;

/**
 * A merchant's recent signed requests, as this process answered them (docs/contract.md, "Request
 * ids"): bounded in memory, never a header or a body, so nothing secret is kept. One process's
 * log; replicas on a shared database keep theirs in it.
 */
export class MerchantRequestLog extends RequestLog {
  private readonly byMerchant = new Map<string, RequestRecord[]>();

  record(merchantId: string, answered: AnsweredRequest): void {
    const records = this.byMerchant.get(merchantId) ?? [];
    // Re-inserted, so the Map's order is least recently heard from first.
    this.byMerchant.delete(merchantId);
    this.byMerchant.set(merchantId, records);
    records.push(recordOf(answered));
    if (records.length > REQUESTS_PER_MERCHANT) records.shift();
    if (this.byMerchant.size > MAX_MERCHANTS) {
      this.byMerchant.delete(this.byMerchant.keys().next().value as string);
    }
  }

  recent(merchantId: string): Promise<RequestRecord[]> {
    return Promise.resolve([...(this.byMerchant.get(merchantId) ?? [])].reverse());
  }
}
