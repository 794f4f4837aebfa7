// A Postman (and newman) pre-request script for a collection made from the service's
// /openapi.json: it signs every request as the contract asks (section 5), with the collection
// variables `merchantId` and `secretKey`, and sends a fresh `client_transaction_id` in place of
// an example's (all zeros but the last twelve digits), so that every run charges anew.
// Requests without credentials (GET /health, /ready, POST /sandbox/accounts) need none of it.
const cryptoJs = require('crypto-js');

const merchantId = pm.variables.get('merchantId');
const secretKey = pm.variables.get('secretKey');
const EXAMPLE_ID = /("client_transaction_id"\s*:\s*")00000000-0000-4000-8000-[0-9a-f]{12}"/g;

// The body exactly as it will be sent: variables resolved here, once, since they are signed.
let body = '';
if (pm.request.body && pm.request.body.mode === 'raw') {
  body = pm.variables
    .replaceIn(pm.request.body.raw)
    .replace(EXAMPLE_ID, (_, key) => `${key}${pm.variables.replaceIn('{{$guid}}')}"`);
  pm.request.body.update({ mode: 'raw', raw: body, options: { raw: { language: 'json' } } });
}

if (merchantId && secretKey) {
  const timestamp = String(Math.floor(Date.now() / 1000));
  // The request target as sent: path variables and {{variables}} resolved, query included.
  const path = pm.variables.replaceIn(pm.request.url.getPathWithQuery());
  const signed = `${timestamp}\n${pm.request.method.toUpperCase()}\n${path}\n${body}`;
  const signature = cryptoJs.HmacSHA512(signed, secretKey).toString(cryptoJs.enc.Hex);
  const token = cryptoJs.enc.Base64.stringify(cryptoJs.enc.Utf8.parse(`${merchantId}:${signature}`));
  pm.request.headers.upsert({ key: 'timestamp', value: timestamp });
  pm.request.headers.upsert({ key: 'Authorization', value: `Basic ${token}` });
}
