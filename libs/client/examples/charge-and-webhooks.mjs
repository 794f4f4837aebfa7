// A charge on an account of its own, its webhooks verified by a local receiver:
//   node charge-and-webhooks.mjs   (SANDBOX_URL, else http://localhost:$API_PORT, 3000 by default)
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { createTpsClient, verifyWebhook } from '@tps/client';

const sandbox = process.env.SANDBOX_URL ?? `http://localhost:${process.env.API_PORT ?? 3000}`;
const FINAL = ['APPROVAL', 'DECLINED', 'TERMINAL_REJECTED', 'TERMINAL_CANCELED'];
// Never hang: a webhook that does not come fails the run.
setTimeout(() => {
  console.error('no final webhook within 60 s');
  process.exit(1);
}, 60_000).unref();

// An account of this run's own (no signature needed): the shared demo merchant stays untouched.
const created = await fetch(`${sandbox}/sandbox/accounts`, { method: 'POST' }).catch((error) => {
  throw new Error(`could not reach the sandbox at ${sandbox}: ${error.cause?.message ?? error}`);
});
const account = await created.json();
const tps = createTpsClient({
  baseUrl: sandbox,
  merchantId: account.merchant_id,
  secretKey: account.secret_key,
  retry: { attempts: 3, delayMs: 1000 },
});

// The account's whsec_ secret, then a receiver that verifies each delivery over its raw bytes.
const { data: secret } = await tps.POST('/sandbox/webhook-secret');
let done;
const finished = new Promise((resolve) => (done = resolve));
const receiver = createServer((request, response) => {
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    try {
      const event = verifyWebhook(secret.secret, Buffer.concat(chunks), request.headers);
      console.log(`webhook ${event.status} (verified)`);
      response.writeHead(200).end();
      if (FINAL.includes(event.status)) done();
    } catch (error) {
      console.error(`refused a webhook: ${error.message}`);
      response.writeHead(400).end();
    }
  });
});
await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));

const { data, error, response } = await tps.POST('/terminal/v1/{terminalSerial}/async/charge', {
  params: { path: { terminalSerial: account.terminals[1].serialNumber } },
  body: {
    amount: { iva: 1600, subtotal_iva: 10000, subtotal_iva0: 0 },
    client_transaction_id: randomUUID(),
    events_webhook_url: `http://127.0.0.1:${receiver.address().port}/hook`,
  },
});
if (data === undefined) throw new Error(`${response.status} ${JSON.stringify(error)}`);
console.log(`charge ${data.status} (${response.status})`);

await finished;
receiver.close();
await tps.DELETE('/sandbox/accounts/me');
