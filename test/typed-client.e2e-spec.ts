import { randomUUID } from 'node:crypto';
import { createTpsClient, type TpsClient } from '@tps/client';
import { DEMO_MERCHANT, Stack } from '@tps/testing';

const amount = (subtotal: number) => ({ iva: 1600, subtotal_iva: subtotal, subtotal_iva0: 0 });

describe('the typed client @tps/client against the built API', () => {
  let stack: Stack;
  let tps: TpsClient;

  beforeAll(async () => {
    stack = await Stack.start();
    tps = createTpsClient({
      baseUrl: stack.apiUrl,
      merchantId: DEMO_MERCHANT.merchantId,
      secretKey: DEMO_MERCHANT.secret,
      retry: { attempts: 20, delayMs: 250 },
    });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('charges, signed by the client, and reads the answer typed', async () => {
    const { data, response } = await tps.POST('/terminal/v1/{terminalSerial}/sync/charge', {
      params: { path: { terminalSerial: 'SIM0000001' } },
      body: { amount: amount(10_000), client_transaction_id: randomUUID() },
    });
    expect(response.status).toBe(200);
    expect(data?.approved).toBe(true);
    expect(data?.responseCode).toBe('00');
  });

  it('answers a refusal typed in the error body', async () => {
    const { data, error, response } = await tps.POST('/terminal/v1/{terminalSerial}/sync/charge', {
      params: { path: { terminalSerial: 'NOSUCH0001' } },
      body: { amount: amount(10_000), client_transaction_id: randomUUID() },
    });
    expect(data).toBeUndefined();
    expect(response.status).toBe(404);
    expect(error).toMatchObject({ code: 'NF-002' });
  });

  it('asks again with the same client_transaction_id after 503 TER-001, and the charge runs once', async () => {
    const serial = 'SIM0000002';
    const offline = await tps.POST('/sandbox/terminals/{serial}/offline', { params: { path: { serial } } });
    expect(offline.response.status).toBe(200);
    const id = randomUUID();
    const charging = tps.POST('/terminal/v1/{terminalSerial}/sync/charge', {
      params: { path: { terminalSerial: serial } },
      body: { amount: amount(10_000), client_transaction_id: id },
    });
    // The first tries find the terminal offline (not taken); one after it is back runs the charge.
    await new Promise((resolve) => setTimeout(resolve, 600));
    const online = await tps.POST('/sandbox/terminals/{serial}/online', { params: { path: { serial } } });
    expect(online.response.status).toBe(200);
    const { data, response } = await charging;
    expect(response.status).toBe(200);
    expect(data?.approved).toBe(true);

    const search = await tps.POST('/terminal/v1/{terminalSerial}/sync/transaction_search_online', {
      params: { path: { terminalSerial: serial } },
      body: { client_transaction_id: id },
    });
    expect(search.data?.items).toHaveLength(1);
    expect(search.data?.items[0].status).toBe('APPROVAL');
  });
});
