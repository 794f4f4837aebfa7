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

  it("sends a fresh client_transaction_id in place of the example's on each execution, signed", async () => {
    const example = '{"client_transaction_id":"00000000-0000-4000-8000-0123456789ab","amount":1}';
    const sent: string[] = [];
    for (let i = 0; i < 2; i++) {
      const request = await signDocsRequest({
        url: 'http://localhost:3000/terminal/v1/sync/charge',
        method: 'POST',
        headers: { Authorization: 'demo-merchant:demo-secret-key' },
        body: example,
      });
      const body = request.body as string;
      const { client_transaction_id: id } = JSON.parse(body) as { client_transaction_id: string };
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(body).toBe(example.replace('00000000-0000-4000-8000-0123456789ab', id));
      // The signature covers the body as sent, fresh id included.
      const expected = signRequest({
        merchantId: 'demo-merchant',
        secret: 'demo-secret-key',
        method: 'POST',
        path: '/terminal/v1/sync/charge',
        body,
        timestamp: Number(request.headers.timestamp),
      });
      expect(request.headers.Authorization).toBe(expected.authorization);
      sent.push(id);
    }
    expect(sent[0]).not.toBe(sent[1]);
  });

  it('keeps an id the visitor typed, so a repeat shows the first answer again', async () => {
    const typed: Array<Record<string, string>> = [{ Authorization: 'demo-merchant:demo-secret-key' }, {}];
    for (const headers of typed) {
      const request = await signDocsRequest({
        url: 'http://localhost:3000/terminal/v1/sync/charge',
        method: 'POST',
        headers,
        body: BODY,
      });
      expect(request.body).toBe(BODY);
    }
  });
});
