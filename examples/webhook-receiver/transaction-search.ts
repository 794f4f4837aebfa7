import { createHmac } from 'node:crypto';

/** The account's credentials and the service's base URL, as the integrator configures them. */
export interface ServiceAccess {
  baseUrl: string;
  merchantId: string;
  secretKey: string;
}

export interface SearchedTransaction {
  client_transaction_id: string;
  status: string;
  transaction_reference: string | null;
}

/** What a failed fetch's cause says (ECONNREFUSED, a timeout, …), else the error itself. */
function reason(error: unknown): string {
  const { cause } = (error ?? {}) as { cause?: { message?: unknown } };
  return typeof cause?.message === 'string' ? cause.message : String(error);
}

/**
 * The signed online transaction search (docs/contract.md: authentication and transaction search):
 * `Authorization: Basic base64(merchant_id:hex HMAC-SHA512 of "timestamp\nPOST\npath\nbody")`.
 */
export async function searchTransaction(
  access: ServiceAccess,
  clientTransactionId: string,
): Promise<SearchedTransaction | null> {
  const path = '/terminal/v1/sync/transaction_search_online';
  const body = JSON.stringify({ client_transaction_id: clientTransactionId });
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signature = createHmac('sha512', access.secretKey)
    .update(`${timestamp}\nPOST\n${path}\n${body}`)
    .digest('hex');
  const url = `${access.baseUrl}${path}`;
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      timestamp,
      authorization: `Basic ${Buffer.from(`${access.merchantId}:${signature}`).toString('base64')}`,
    },
    body,
    signal: AbortSignal.timeout(10_000),
  }).catch((error: unknown) => {
    // fetch says only "fetch failed": name the URL it could not reach, and why (its cause).
    throw new Error(`transaction search: could not reach ${url} (${reason(error)})`);
  });
  if (response.status !== 200) throw new Error(`transaction search at ${url} answered ${response.status}`);
  const page = (await response.json()) as { items: SearchedTransaction[] };
  return page.items[0] ?? null;
}
