/** One signed request as the request log keeps it (contract, "Request ids"): never a header or a body. */
export interface LoggedRequest {
  atMs: number;
  method: string;
  path: string;
  status: number;
  /** Whole microseconds. */
  durationUs: number;
  requestId: string;
}

/** A request to store: its own id (a write tried again stores it once) and its merchant's. */
export interface RequestToLog extends LoggedRequest {
  id: string;
  merchantId: string;
}

/**
 * Merchants' recent requests on a database the replicas share; a process alone keeps its own in
 * memory instead, so PostgreSQL is this port's only store.
 */
export abstract class RequestLogStore {
  /**
   * Stores the requests (one already stored, by id, stays as it is), then keeps only the newest
   * `kept` of each of their merchants.
   */
  abstract append(requests: readonly RequestToLog[], kept: number): Promise<void>;
  /** A merchant's newest `limit` requests, newest first. */
  abstract recent(merchantId: string, limit: number): Promise<LoggedRequest[]>;
}
