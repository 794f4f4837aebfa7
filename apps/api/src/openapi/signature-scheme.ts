import type { SecuritySchemeObject } from '@nestjs/swagger';

export const SIGNATURE_SCHEME = 'merchantSignature';

/** What answers without a merchant signature and is not an operation of the document. */
const OUTSIDE_THE_DOCUMENT = [
  'the pages and documents (`/docs` and its assets, `/openapi.json`, `/openapi.yaml`, `/console` and its assets)',
  '`GET /metrics`, which takes its own bearer token (`METRICS_TOKEN`) or is served on `METRICS_PORT`',
  'the CORS preflights (`OPTIONS`, sandbox profile)',
];

/**
 * The request signature of contract §5, described exactly. It is not HTTP Basic authentication
 * (the password would be the secret itself), so it is declared as a header key with the recipe.
 * `unsigned` are the document's operations marked public (`METHOD /path`), read from the routes.
 */
export const signatureSecurityScheme = (unsigned: readonly string[]): SecuritySchemeObject => ({
  type: 'apiKey',
  in: 'header',
  name: 'Authorization',
  description: [
    'Every route is signed with the merchant id and secret key, except:',
    '',
    ...[...unsigned.map((route) => `\`${route}\``), ...OUTSIDE_THE_DOCUMENT].map((what) => `- ${what}`),
    '',
    'Send two headers:',
    '',
    '- `timestamp`: Unix time in seconds (UTC), within ±300 s of the real clock (AUTH-002 otherwise).',
    '- `Authorization: Basic base64(merchant_id + ":" + signature)`, where `signature` is the lowercase',
    '  hex HMAC-SHA512, keyed by the secret key, of the string to sign',
    '  `timestamp + "\\n" + METHOD + "\\n" + path + "\\n" + raw body`.',
    '  `path` is the request target exactly as sent, query string included; `raw body` is the exact',
    '  bytes sent, empty for a request without a body. AUTH-001 otherwise.',
    '',
    'Test vector: secret `demo-secret-key`, merchant `demo-merchant`, `timestamp: 1795334400`,',
    '`POST /terminal/v1/SIM0000002/async/charge`, body',
    '`{"amount":{"iva":1600,"subtotal_iva":10000,"subtotal_iva0":0},"client_transaction_id":"6f1c2b4e-8d1a-4c3e-9b7a-2f5d6e7a8b9c"}`',
    '→ signature',
    '`75fd12c37c9dab4d90ac2f0563fbd9e1587e6544b9d762d027f07df1662f60ec2dea79162b57ecb1403a5ca260b5ee3173555e12b6b8a0f25e13de9275f60fed`,',
    'header `Authorization: Basic ZGVtby1tZXJjaGFudDo3NWZkMTJjMzdjOWRhYjRkOTBhYzJmMDU2M2ZiZDllMTU4N2U2NTQ0YjlkNzYyZDAyN2YwN2RmMTY2MmY2MGVjMmRlYTc5MTYyYjU3ZWNiMTQwM2E1Y2EyNjBiNWVlMzE3MzU1NWUxMmI2YjhhMGYyNWUxM2RlOTI3NWY2MGZlZA==`.',
    '',
    'There is no replay cache: a captured request stays valid only inside the ±300 s window, and every',
    'request that moves money is idempotent by `client_transaction_id`.',
    '',
    'A generated client signs with a request hook: sign the final path and body bytes and set both headers.',
    'Neither header is a parameter of the operations: a client generated from this document asks for',
    "no dummy value, and the repository's typed TypeScript client (`@tps/client`) signs every call.",
    '',
    'In the browsable docs (`/docs`), choose Authorize and enter `merchant_id:secret_key` (the sandbox',
    'seeds `demo-merchant:demo-secret-key`): the page signs each "Try it out" request itself with Web',
    'Crypto and sends the two headers; the secret never leaves the page.',
  ].join('\n'),
});
