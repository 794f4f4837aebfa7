import { createHmac } from 'node:crypto';

/**
 * Request signing of contract §5: `Authorization: Basic base64(merchant_id ":" signature)`, the
 * signature being the lowercase hex HMAC-SHA512 of `timestamp \n METHOD \n path \n raw body`.
 */
export interface SignInput {
  merchantId: string;
  secret: string;
  method: string;
  /** The request target exactly as sent, query string included. */
  path: string;
  /** The exact bytes sent; empty for a request without a body. */
  body?: string | Buffer;
  /** Unix seconds; defaults to now. */
  timestamp?: number;
}

export interface SignedHeaders {
  authorization: string;
  timestamp: string;
}

export function requestSignature(
  secret: string,
  timestamp: string,
  method: string,
  path: string,
  body: string | Buffer = '',
): string {
  return createHmac('sha512', secret)
    .update(`${timestamp}\n${method.toUpperCase()}\n${path}\n`)
    .update(body)
    .digest('hex');
}

export function signRequest(input: SignInput): SignedHeaders {
  const timestamp = String(input.timestamp ?? Math.floor(Date.now() / 1000));
  const signature = requestSignature(input.secret, timestamp, input.method, input.path, input.body);
  const token = Buffer.from(`${input.merchantId}:${signature}`).toString('base64');
  return { authorization: `Basic ${token}`, timestamp };
}
