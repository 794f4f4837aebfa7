/** The request Swagger UI hands its `requestInterceptor`. */
export interface DocsRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: unknown;
}

/**
 * Prepares each "Try it out" request of /docs in the browser:
 * - the example's own `client_transaction_id` (all zeros but its last twelve digits, see
 *   request-examples.ts) becomes a fresh UUID on each execution, so that no visitor gets another
 *   visitor's charge back (or 409 TRX-001 for a changed amount); an id the visitor typed stays;
 * - it is signed as contract §5 says, with Web Crypto: the user authorizes with
 *   `merchant_id:secret_key` as the `merchantSignature` value, and the secret never leaves the page.
 * Swagger UI receives this function's source text, so it must stay self-contained: no imports,
 * nothing from the enclosing module.
 */
export async function signDocsRequest(request: DocsRequest): Promise<DocsRequest> {
  if (typeof request.body === 'string') {
    request.body = request.body.replace(
      /("client_transaction_id"\s*:\s*")00000000-0000-4000-8000-[0-9a-f]{12}"/g,
      (_, key: string) => {
        // A version 4 UUID from getRandomValues, which a page served over plain http has too.
        const bytes = crypto.getRandomValues(new Uint8Array(16));
        bytes[6] = (bytes[6] & 0x0f) | 0x40;
        bytes[8] = (bytes[8] & 0x3f) | 0x80;
        const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
        const uuid = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
        return `${key}${uuid}"`;
      },
    );
  }
  const name = Object.keys(request.headers).find((header) => header.toLowerCase() === 'authorization');
  const typed = name === undefined ? '' : request.headers[name];
  const colon = typed.indexOf(':');
  // Nothing typed, or a header already signed by hand: sent as it is.
  if (name === undefined || colon < 1 || typed.startsWith('Basic ')) return request;
  const merchantId = typed.slice(0, colon);
  const encoder = new TextEncoder();
  const key = await crypto.subtle.importKey(
    'raw',
    encoder.encode(typed.slice(colon + 1)),
    { name: 'HMAC', hash: 'SHA-512' },
    false,
    ['sign'],
  );
  const timestamp = String(Math.floor(Date.now() / 1000));
  // Relative to the page in a browser; Swagger UI normally gives an absolute URL already.
  const page = (globalThis as { location?: { href: string } }).location?.href;
  const url = new URL(request.url, page);
  const body = typeof request.body === 'string' ? request.body : '';
  const signed = `${timestamp}\n${request.method.toUpperCase()}\n${url.pathname}${url.search}\n${body}`;
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(signed)));
  const signature = Array.from(mac, (byte) => byte.toString(16).padStart(2, '0')).join('');
  delete request.headers[name];
  request.headers.Authorization = `Basic ${btoa(`${merchantId}:${signature}`)}`;
  request.headers.timestamp = timestamp;
  return request;
}
