#!/usr/bin/env node
/**
 * Prints the two headers of a signed request (contract §5):
 *   npm run sign -- POST /terminal/v1/async/charge '{"amount":…}'
 * Merchant and secret come from MERCHANT_ID and SECRET_KEY (the demo merchant by default).
 * With --curl it prints them as curl arguments.
 */
import { signRequest } from '@tps/contracts';

const args = process.argv.slice(2);
const asCurl = args.includes('--curl');
const [method, path, body = ''] = args.filter((arg) => arg !== '--curl');
if (method === undefined || path === undefined) {
  process.stderr.write('usage: npm run sign -- [--curl] METHOD PATH [BODY]\n');
  process.exit(2);
}
const headers = signRequest({
  merchantId: process.env.MERCHANT_ID ?? 'demo-merchant',
  secret: process.env.SECRET_KEY ?? 'demo-secret-key',
  method,
  path,
  body,
});
if (asCurl) {
  process.stdout.write(`-H 'Authorization: ${headers.authorization}' -H 'timestamp: ${headers.timestamp}'\n`);
} else {
  process.stdout.write(`Authorization: ${headers.authorization}\ntimestamp: ${headers.timestamp}\n`);
}
