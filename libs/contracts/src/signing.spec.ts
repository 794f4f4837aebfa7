import { requestSignature, signRequest } from './signing';

// The test vector of contract §5.
const VECTOR = {
  secret: 'demo-secret-key',
  merchantId: 'demo-merchant',
  timestamp: 1795334400,
  method: 'POST',
  path: '/terminal/v1/SIM0000002/async/charge',
  body: '{"amount":{"iva":1600,"subtotal_iva":10000,"subtotal_iva0":0},"client_transaction_id":"6f1c2b4e-8d1a-4c3e-9b7a-2f5d6e7a8b9c"}',
  signature:
    '75fd12c37c9dab4d90ac2f0563fbd9e1587e6544b9d762d027f07df1662f60ec2dea79162b57ecb1403a5ca260b5ee3173555e12b6b8a0f25e13de9275f60fed',
  authorization:
    'Basic ZGVtby1tZXJjaGFudDo3NWZkMTJjMzdjOWRhYjRkOTBhYzJmMDU2M2ZiZDllMTU4N2U2NTQ0YjlkNzYyZDAyN2YwN2RmMTY2MmY2MGVjMmRlYTc5MTYyYjU3ZWNiMTQwM2E1Y2EyNjBiNWVlMzE3MzU1NWUxMmI2YjhhMGYyNWUxM2RlOTI3NWY2MGZlZA==',
};

describe('request signing', () => {
  it('reproduces the signature of the contract test vector', () => {
    expect(
      requestSignature(VECTOR.secret, String(VECTOR.timestamp), VECTOR.method, VECTOR.path, VECTOR.body),
    ).toBe(VECTOR.signature);
  });

  it('reproduces the Authorization header of the contract test vector', () => {
    expect(signRequest(VECTOR)).toEqual({
      authorization: VECTOR.authorization,
      timestamp: String(VECTOR.timestamp),
    });
  });

  it('signs the bytes, so a Buffer body and its string agree', () => {
    expect(signRequest({ ...VECTOR, body: Buffer.from(VECTOR.body) })).toEqual(signRequest(VECTOR));
  });

  it('changes with any part of the request', () => {
    const base = signRequest(VECTOR).authorization;
    expect(signRequest({ ...VECTOR, path: `${VECTOR.path}?x=1` }).authorization).not.toBe(base);
    expect(signRequest({ ...VECTOR, body: `${VECTOR.body} ` }).authorization).not.toBe(base);
    expect(signRequest({ ...VECTOR, timestamp: VECTOR.timestamp + 1 }).authorization).not.toBe(base);
    expect(signRequest({ ...VECTOR, method: 'PUT' }).authorization).not.toBe(base);
  });
});
