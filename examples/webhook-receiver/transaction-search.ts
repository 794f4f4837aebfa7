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
  const response = await fetch(`${access.baseUrl}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      timestamp,
      authorization: `Basic ${Buffer.from(`${access.merchantId}:${signature}`).toString('base64')}`,
    },
    body,
    signal: AbortSignal.timeout(10_000),
  });
  if (response.status !== 200) throw new Error(`transaction search answered ${response.status}`);
  const page = (await response.json()) as { items: SearchedTransaction[] };
  return page.items[0] ?? null;
}
