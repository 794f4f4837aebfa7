/**
 * Runs the reference webhook receiver:
 *   WEBHOOK_SECRET=whsec_… MERCHANT_ID=… SECRET_KEY=… node dist/examples/webhook-receiver/main.js [PORT]
 * The sandbox: SANDBOX_URL, else http://127.0.0.1:$API_PORT (3000 by default), as the other tools.
 */
import { createReceiver } from './receiver';
import { sandboxUrlOf } from './sandbox-url';

const required = (name: string): string => {
  const value = process.env[name];
  if (value === undefined || value === '') {
    process.stderr.write(`${name} is required\n`);
    process.exit(2);
  }
  return value;
};

const { server } = createReceiver({
  webhookSecret: required('WEBHOOK_SECRET'),
  merchantId: required('MERCHANT_ID'),
  secretKey: required('SECRET_KEY'),
  baseUrl: sandboxUrlOf(process.env),
  onStatus: (id, status) => process.stdout.write(`${id} ${status}\n`),
  onError: (error) => process.stderr.write(`${String(error)}\n`),
});
server.listen(Number(process.argv[2] ?? '4000'), '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(
    `webhook receiver on ${typeof address === 'object' && address ? address.port : '?'}\n`,
  );
});
