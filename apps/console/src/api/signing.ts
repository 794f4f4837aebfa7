/**
 * Request signing of contract §5, done in the browser with Web Crypto: the secret key is imported
 * once as a non-extractable HMAC key and never leaves this page's memory.
 */
export interface Session {
  merchantId: string;
  key: CryptoKey;
}

export interface SignedHeaders {
  authorization: string;
  timestamp: string;
}

const encoder = new TextEncoder();

export async function openSession(merchantId: string, secret: string): Promise<Session> {
  const key = await globalThis.crypto.subtle.importKey(
    'raw',
    encoder.encode(secret),
    { name: 'HMAC', hash: 'SHA-512' },
    false,
    ['sign'],
  );
  return { merchantId, key };
}

function hex(bytes: ArrayBuffer): string {
  return [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** Lowercase hex HMAC-SHA512 of `timestamp \n METHOD \n path \n body`. */
export async function requestSignature(
  key: CryptoKey,
  timestamp: string,
  method: string,
  path: string,
  body: string,
): Promise<string> {
  const message = encoder.encode(`${timestamp}\n${method.toUpperCase()}\n${path}\n${body}`);
  return hex(await globalThis.crypto.subtle.sign('HMAC', key, message));
}

export async function signRequest(
  session: Session,
  method: string,
  path: string,
  body: string,
  nowMs = Date.now(),
): Promise<SignedHeaders> {
  const timestamp = String(Math.floor(nowMs / 1000));
  const signature = await requestSignature(session.key, timestamp, method, path, body);
  return { authorization: `Basic ${btoa(`${session.merchantId}:${signature}`)}`, timestamp };
}
