import { signRequest } from '@tps/contracts';
import { signDocsRequest } from './docs-request-signer';

const BODY =
  '{"amount":{"iva":1600,"subtotal_iva":10000,"subtotal_iva0":0},"client_transaction_id":"6f1c2b4e-8d1a-4c3e-9b7a-2f5d6e7a8b9c"}';
const VECTOR =
  'Basic ZGVtby1tZXJjaGFudDo3NWZkMTJjMzdjOWRhYjRkOTBhYzJmMDU2M2ZiZDllMTU4N2U2NTQ0YjlkNzYyZDAyN2YwN2RmMTY2MmY2MGVjMmRlYTc5MTYyYjU3ZWNiMTQwM2E1Y2EyNjBiNWVlMzE3MzU1NWUxMmI2YjhhMGYyNWUxM2RlOTI3NWY2MGZlZA==';

describe('signDocsRequest (the /docs "Try it out" signer)', () => {
  afterEach(() => jest.restoreAllMocks());

  it("signs the contract's test vector from the merchant id and secret typed into Authorize", async () => {
    jest.spyOn(Date, 'now').mockReturnValue(1795334400_000);
    const request = await signDocsRequest({
      url: 'http://localhost:3000/terminal/v1/SIM0000002/async/charge',
      method: 'post',
      headers: { Authorization: 'demo-merchant:demo-secret-key', timestamp: '1' },
      body: BODY,
    });
    expect(request.headers).toEqual({ Authorization: VECTOR, timestamp: '1795334400' });
  });

  it('signs the path with its query and an empty body, as the library does', async () => {
    const request = await signDocsRequest({
      url: 'http://127.0.0.1:3000/sandbox/deliveries?client_transaction_id=x',
      method: 'GET',
      headers: { authorization: 'other-merchant:other-secret-key' },
    });
    const expected = signRequest({
      merchantId: 'other-merchant',
      secret: 'other-secret-key',
      method: 'GET',
      path: '/sandbox/deliveries?client_transaction_id=x',
      timestamp: Number(request.headers.timestamp),
    });
    expect(request.headers).toEqual({ Authorization: expected.authorization, timestamp: expected.timestamp });
  });

  it('leaves a request alone when nothing usable was typed, or it is already signed', async () => {
    const typed: Array<Record<string, string>> = [
      {},
      { Authorization: 'no-colon' },
      { Authorization: 'Basic abc:def' },
    ];
    for (const headers of typed) {
      const request = { url: 'http://localhost/health', method: 'GET', headers: { ...headers } };
      expect((await signDocsRequest(request)).headers).toEqual(headers);
    }
  });
});
