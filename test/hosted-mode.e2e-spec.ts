import { randomUUID } from 'node:crypto';
import { Stack, type SignedClient } from '@tps/testing';

function charge(url: string) {
  return {
    amount: { iva: 1600, subtotal_iva: 10000, subtotal_iva0: 0 },
    client_transaction_id: randomUUID(),
    events_webhook_url: url,
  };
}

/**
 * Hosted mode (contract, "Hosted mode"): a sandbox run for others sends no webhook, callback or
 * conformance request to a loopback, private, link-local or cloud-metadata address.
 */
describe('hosted mode: destinations', () => {
  let stack: Stack;
  let account: SignedClient;
  let serial: string;

  beforeAll(async () => {
    // The demo merchants only read in hosted mode: the requests are an account's own.
    stack = await Stack.start({ apiEnv: { HOSTED_MODE: 'true' }, instant: [] });
    const made = await fetch(`${stack.apiUrl}/sandbox/accounts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ terminals: 1 }),
    });
    const body = (await made.json()) as {
      merchant_id: string;
      secret_key: string;
      terminals: Array<{ serialNumber: string }>;
    };
    account = stack.client().as({ merchantId: body.merchant_id, secret: body.secret_key });
    serial = body.terminals[0].serialNumber;
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it.each([
    'http://127.0.0.1:4000/hook',
    'http://localhost:4000/hook',
    'http://10.1.2.3/hook',
    'http://192.168.1.20/hook',
    'http://169.254.169.254/latest/meta-data/',
    'http://[::1]:4000/hook',
    'http://[::ffff:127.0.0.1]/hook',
    // IPv4-compatible, translated and NAT64 forms of loopback (contract §22).
    'http://[::127.0.0.1]:4000/hook',
    'http://[::7f00:1]:4000/hook',
    'http://[::ffff:0:7f00:1]:4000/hook',
    'http://[64:ff9b::7f00:1]:4000/hook',
  ])('refuses the webhook URL %s with PAR-004', async (url) => {
    const answer = await account.post(`/terminal/v1/${serial}/async/charge`, charge(url));
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ type: 'PARAMETER', code: 'PAR-004', param: 'events_webhook_url' });
  });

  it('refuses a private print callback and a private conformance receiver', async () => {
    const print = await account.post(`/terminal/v1/${serial}/print`, {
      commands: [{ type: 'text', value: 'hello' }],
      webhookUrl: 'http://127.0.0.1:4000/print',
    });
    expect(print.status).toBe(400);
    expect(print.body).toMatchObject({ code: 'PAR-004', param: 'webhookUrl' });
    const run = await account.post('/sandbox/conformance-runs', { url: 'http://127.0.0.1:4000/hook' });
    expect(run.status).toBe(400);
    expect(run.body).toMatchObject({ code: 'PAR-004', param: 'url' });
  });
});
