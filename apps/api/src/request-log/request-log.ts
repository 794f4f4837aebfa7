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

export function recordOf(answered: AnsweredRequest): RequestRecord {
  return {
    at: answered.at.toISOString(),
    method: answered.method,
    path: answered.path,
    status: answered.status,
    duration_ms: answered.durationMs,
    request_id: answered.requestId ?? '',
  };
}

/** A merchant's recent signed requests (docs/contract.md, "Request ids"): where they are kept. */
export abstract class RequestLog {
  /** Called as each request is answered: never a write of its own per request. */
  abstract record(merchantId: string, answered: AnsweredRequest): void;
  /** The last REQUESTS_PER_MERCHANT, newest first. */
  abstract recent(merchantId: string): Promise<RequestRecord[]>;
}
