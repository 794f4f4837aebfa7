import { createHmac } from 'node:crypto';

/** The two headers that sign one request (contract §5). */
export interface SignedHeaders {
  authorization: string;
  timestamp: string;
}

/**
 * `Authorization: Basic base64(merchant_id ":" signature)`, the signature being the lowercase hex
 * HMAC-SHA512, keyed by the secret key, of `timestamp \n METHOD \n path \n raw body` (contract §5).
 * `path` is the target as sent, query included; `body` the exact bytes sent, empty for none.
 */
export function signRequest(
  credentials: { merchantId: string; secretKey: string },
  method: string,
  path: string,
  body: string | Uint8Array = '',
  timestamp: number = Math.floor(Date.now() / 1000),
): SignedHeaders {
  const signature = createHmac('sha512', credentials.secretKey)
    .update(`${timestamp}\n${method.toUpperCase()}\n${path}\n`)
    .update(body)
    .digest('hex');
  const token = Buffer.from(`${credentials.merchantId}:${signature}`).toString('base64');
  return { authorization: `Basic ${token}`, timestamp: String(timestamp) };
}
