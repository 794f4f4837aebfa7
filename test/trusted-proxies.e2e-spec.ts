import { Stack } from '@tps/testing';

function createAccount(stack: Stack, forwardedFor: string): Promise<Response> {
  return fetch(`${stack.apiUrl}/sandbox/accounts`, {
    method: 'POST',
    headers: { 'x-forwarded-for': forwardedFor },
  });
}

/**
 * X-Forwarded-For is trusted only from the configured proxies (contract, "Sandbox accounts"): the
 * limit of account creation counts the client the proxy names, and nobody else's header counts.
 */
describe('the client address behind a proxy', () => {
  let stack: Stack;

  afterEach(async () => {
    await stack?.stop();
  });

  it('counts per X-Forwarded-For client when the request comes from a trusted proxy', async () => {
    stack = await Stack.start({ apiEnv: { TRUSTED_PROXIES: 'loopback', ACCOUNT_RATE_LIMIT_MAX: '1' } });
    expect((await createAccount(stack, '203.0.113.1')).status).toBe(201);
    expect((await createAccount(stack, '203.0.113.1')).status).toBe(429);
    // A client's own header before the proxy's hop does not help it: the proxy appended the address it saw.
    expect((await createAccount(stack, '198.51.100.7, 203.0.113.1')).status).toBe(429);
    expect((await createAccount(stack, '203.0.113.2')).status).toBe(201);
  });

  it('ignores X-Forwarded-For from an address not configured as a proxy', async () => {
    stack = await Stack.start({ apiEnv: { TRUSTED_PROXIES: '10.0.0.0/8', ACCOUNT_RATE_LIMIT_MAX: '1' } });
    expect((await createAccount(stack, '203.0.113.1')).status).toBe(201);
    expect((await createAccount(stack, '203.0.113.2')).status).toBe(429);
  });

  it('refuses to start on a proxy list it cannot read', async () => {
    stack = await Stack.start({ withoutSimulator: true });
    await stack.api.stop();
    await expect(stack.startApi({ TRUSTED_PROXIES: 'not-an-address' })).rejects.toThrow(
      /invalid IP address: not-an-address/,
    );
  });
});
