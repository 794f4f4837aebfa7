import { requestSignature } from '@tps/contracts';
import { signRequest } from './request-signature';

/** The package signs on its own (it depends on openapi-fetch alone): as the service's library does. */
describe("the client's own request signature (contract §5)", () => {
  it('is the test vector of the contract', () => {
    const body =
      '{"amount":{"iva":1600,"subtotal_iva":10000,"subtotal_iva0":0},"client_transaction_id":"6f1c2b4e-8d1a-4c3e-9b7a-2f5d6e7a8b9c"}';
    const signed = signRequest(
      { merchantId: 'demo-merchant', secretKey: 'demo-secret-key' },
      'post',
      '/terminal/v1/SIM0000002/async/charge',
      body,
      1795334400,
    );
    expect(signed).toEqual({
      timestamp: '1795334400',
      authorization:
        'Basic ZGVtby1tZXJjaGFudDo3NWZkMTJjMzdjOWRhYjRkOTBhYzJmMDU2M2ZiZDllMTU4N2U2NTQ0YjlkNzYyZDAyN2YwN2RmMTY2MmY2MGVjMmRlYTc5MTYyYjU3ZWNiMTQwM2E1Y2EyNjBiNWVlMzE3MzU1NWUxMmI2YjhhMGYyNWUxM2RlOTI3NWY2MGZlZA==',
    });
  });

  it("agrees with the service's library on a read with a query and no body", () => {
    const signed = signRequest(
      { merchantId: 'm', secretKey: 's' },
      'GET',
      '/sandbox/deliveries?limit=2',
      '',
      1,
    );
    const token = Buffer.from(signed.authorization.replace('Basic ', ''), 'base64').toString('utf8');
    expect(token).toBe(`m:${requestSignature('s', '1', 'GET', '/sandbox/deliveries?limit=2', '')}`);
  });
});
