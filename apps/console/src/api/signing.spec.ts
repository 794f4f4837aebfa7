import { openSession, signRequest } from './signing';

describe('console request signing (Web Crypto)', () => {
  it('gives the test vector of contract §5', async () => {
    const session = await openSession('demo-merchant', 'demo-secret-key');
    const body =
      '{"amount":{"iva":1600,"subtotal_iva":10000,"subtotal_iva0":0},"client_transaction_id":"6f1c2b4e-8d1a-4c3e-9b7a-2f5d6e7a8b9c"}';
    const signed = await signRequest(
      session,
      'POST',
      '/terminal/v1/SIM0000002/async/charge',
      body,
      1795334400_000,
    );
    expect(signed).toEqual({
      timestamp: '1795334400',
      authorization:
        'Basic ZGVtby1tZXJjaGFudDo3NWZkMTJjMzdjOWRhYjRkOTBhYzJmMDU2M2ZiZDllMTU4N2U2NTQ0YjlkNzYyZDAyN2YwN2RmMTY2MmY2MGVjMmRlYTc5MTYyYjU3ZWNiMTQwM2E1Y2EyNjBiNWVlMzE3MzU1NWUxMmI2YjhhMGYyNWUxM2RlOTI3NWY2MGZlZA==',
    });
  });
});
