import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { DEMO_MERCHANT, REPO_ROOT, Stack, type Credentials } from '@tps/testing';

function provisionMerchant(stack: Stack, merchantId: string, serial: string): Credentials {
  const result = spawnSync(
    process.execPath,
    [join(REPO_ROOT, 'dist/scripts/merchant.js'), 'add', merchantId, '--terminal', serial, '--bound', serial],
    { env: { ...process.env, DATABASE_URL: `sqlite:${stack.apiDatabase}` }, encoding: 'utf8' },
  );
  if (result.status !== 0) throw new Error(`provisioning failed: ${result.stderr}`);
  const created = JSON.parse(result.stdout) as { merchant_id: string; secret_key: string };
  return { merchantId: created.merchant_id, secret: created.secret_key };
}

function charge(webhook: string) {
  return {
    amount: { iva: 1600, subtotal_iva: 10000, subtotal_iva0: 0 },
    client_transaction_id: randomUUID(),
    events_webhook_url: webhook,
  };
}

describe('the production profile (contract §5)', () => {
  let stack: Stack;
  let acme: Credentials;

  beforeAll(async () => {
    // A database that the sandbox seeded with the demo credentials, then run in production.
    stack = await Stack.start({ withoutSimulator: true });
    await stack.restartApi({ PROFILE: 'production' });
    acme = provisionMerchant(stack, 'acme', 'TPV0000001');
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('refuses the demo credentials', async () => {
    const answer = await stack
      .client()
      .as(DEMO_MERCHANT)
      .post('/terminal/v1/SIM0000002/async/charge', charge('https://8.8.8.8/hook'));
    expect(answer.status).toBe(401);
    expect(answer.body).toMatchObject({ type: 'AUTHENTICATION', code: 'AUTH-001' });
  });

  it('serves no sandbox route', async () => {
    const answer = await stack.client().as(acme).patch('/sandbox/terminals/TPV0000001', { pace: 'instant' });
    expect(answer.status).toBe(404);
    expect(answer.body).toMatchObject({ type: 'NOT_FOUND', code: 'NF-000' });
  });

  it.each([
    ['plain http', 'http://8.8.8.8/hook', /https/],
    ['loopback', 'https://127.0.0.1/hook', /non-public/],
    ['a name for loopback', 'https://localhost/hook', /non-public/],
    ['IPv6 loopback', 'https://[::1]/hook', /non-public/],
    ['a private network', 'https://10.20.30.40/hook', /non-public/],
    ['link-local (cloud metadata)', 'https://169.254.169.254/latest', /non-public/],
    ['IPv4-mapped loopback', 'https://[::ffff:127.0.0.1]/hook', /non-public/],
  ])('refuses a webhook URL on %s with 400 PAR-004', async (_case, url, reason) => {
    const answer = await stack.client().as(acme).post('/terminal/v1/async/charge', charge(url));
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ type: 'PARAMETER', code: 'PAR-004', param: 'events_webhook_url' });
    expect(String(answer.body.message)).toMatch(reason);
  });

  it('lets a public https URL through to the terminal (here offline: 503 TER-001)', async () => {
    const answer = await stack
      .client()
      .as(acme)
      .post('/terminal/v1/TPV0000001/async/charge', charge('https://8.8.8.8/hook'));
    expect(answer.status).toBe(503);
    expect(answer.body).toMatchObject({ type: 'TERMINAL', code: 'TER-001' });
  });

  it('lets configuration allow private addresses, still over https only', async () => {
    await stack.restartApi({ PROFILE: 'production', ALLOW_PRIVATE_WEBHOOKS: 'true' });
    const client = stack.client().as(acme);
    const privateHttps = await client.post(
      '/terminal/v1/TPV0000001/async/charge',
      charge('https://127.0.0.1/hook'),
    );
    expect(privateHttps.body).toMatchObject({ code: 'TER-001' });
    const privateHttp = await client.post(
      '/terminal/v1/TPV0000001/async/charge',
      charge('http://127.0.0.1/hook'),
    );
    expect(privateHttp.body).toMatchObject({ code: 'PAR-004' });
  });
});
