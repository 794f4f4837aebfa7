import { signRequest } from './request-signature';

export interface Credentials {
  merchantId: string;
  secretKey: string;
}

/**
 * The two headers of contract §5 for one request: `path` is the target as sent (query included),
 * `body` the exact bytes sent, empty for none.
 */
export function signedHeaders(
  credentials: Credentials,
  method: string,
  path: string,
  body = '',
): { authorization: string; timestamp: string } {
  return signRequest(credentials, method, path, body);
}

/**
 * Asking again after an answer that leaves the outcome unknown (contract §19): the same request,
 * same `client_transaction_id`, signed anew. Off unless asked for.
 */
export interface RetryOptions {
  /** Tries in all, the first included. */
  attempts: number;
  delayMs: number;
}

/**
 * Whether an answer leaves the request worth asking again (contract §19): the service's 503
 * TER-001 or INT-002 means not taken (a retry runs it); any other 5xx, its own 504s or a load
 * balancer's bare ones, means unknown (a retry answers the outcome once known).
 */
function worthAskingAgain(response: Response): boolean {
  return response.status >= 500;
}

/** A request that may be sent twice without doing twice what it asks: a read, or one keyed by its id. */
function repeatable(method: string, body: string): boolean {
  return method === 'GET' || /"client_transaction_id"\s*:/.test(body);
}

/**
 * A `fetch` that signs each request as contract §5 says, over the exact bytes it sends, and
 * re-signs each retry.
 */
export function signedFetch(
  credentials: Credentials,
  retry: RetryOptions = { attempts: 1, delayMs: 0 },
  send: typeof fetch = globalThis.fetch,
): (request: Request) => Promise<Response> {
  return async (request) => {
    const url = new URL(request.url);
    const body = request.body === null ? '' : await request.text();
    const once = (): Promise<Response> => {
      const signed = signedHeaders(credentials, request.method, `${url.pathname}${url.search}`, body);
      const headers = new Headers(request.headers);
      headers.set('authorization', signed.authorization);
      headers.set('timestamp', signed.timestamp);
      return send(url, {
        method: request.method,
        headers,
        signal: request.signal,
        ...(body === '' ? {} : { body }),
      });
    };
    const tries = repeatable(request.method, body) ? Math.max(1, retry.attempts) : 1;
    for (let n = 1; ; n += 1) {
      let response: Response;
      try {
        response = await once();
      } catch (error) {
        // A dropped connection or a timeout: the outcome is unknown, so the same id goes again.
        if (n >= tries || request.signal.aborted) throw error;
        await new Promise((resolve) => setTimeout(resolve, retry.delayMs));
        continue;
      }
      if (n >= tries || !worthAskingAgain(response)) return response;
      await new Promise((resolve) => setTimeout(resolve, retry.delayMs));
    }
  };
}
