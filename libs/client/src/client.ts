import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './generated/openapi';
import { signedFetch, type Credentials, type RetryOptions } from './signed-fetch';

export interface TpsClientOptions extends Credentials {
  /** Where the service answers, e.g. `http://localhost:3000`. */
  baseUrl: string;
  /** Asking again with the same `client_transaction_id` when the outcome is unknown (§19). */
  retry?: RetryOptions;
  /** The `fetch` to send with; the global one by default. */
  fetch?: typeof fetch;
}

/** No call passes the signature's headers: the document keeps them in its security scheme, and the client sets them. */
export type TpsClient = Client<paths>;

/**
 * A client of the Terminal Payment Service typed from its OpenAPI document, with the request
 * signature of contract §5 built in: every call is signed with the merchant's secret key.
 */
export function createTpsClient(options: TpsClientOptions): TpsClient {
  return createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/$/, ''),
    fetch: signedFetch(
      { merchantId: options.merchantId, secretKey: options.secretKey },
      options.retry,
      options.fetch,
    ),
  });
}
