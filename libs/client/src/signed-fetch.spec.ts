import { signedFetch } from './signed-fetch';

/** The test vector of contract §5. */
const VECTOR = {
  merchantId: 'demo-merchant',
  secretKey: 'demo-secret-key',
  timestampMs: 1_795_334_400_000,
  path: '/terminal/v1/SIM0000002/async/charge',
  body: '{"amount":{"iva":1600,"subtotal_iva":10000,"subtotal_iva0":0},"client_transaction_id":"6f1c2b4e-8d1a-4c3e-9b7a-2f5d6e7a8b9c"}',
  authorization:
    'Basic ZGVtby1tZXJjaGFudDo3NWZkMTJjMzdjOWRhYjRkOTBhYzJmMDU2M2ZiZDllMTU4N2U2NTQ0YjlkNzYyZDAyN2YwN2RmMTY2MmY2MGVjMmRlYTc5MTYyYjU3ZWNiMTQwM2E1Y2EyNjBiNWVlMzE3MzU1NWUxMmI2YjhhMGYyNWUxM2RlOTI3NWY2MGZlZA==',
};

interface Sent {
  url: string;
  method: string;
  headers: Headers;
  body: string | undefined;
}

/** A `fetch` that records what it is given and answers the statuses scripted, then 200. */
function recorder(...statuses: number[]) {
  const sent: Sent[] = [];
  const send = (async (url: URL, init: RequestInit) => {
    sent.push({
      url: url.toString(),
      method: init.method ?? 'GET',
      headers: new Headers(init.headers),
      body: init.body as string | undefined,
    });
    return new Response('{}', { status: statuses[sent.length - 1] ?? 200 });
  }) as unknown as typeof fetch;
  return { sent, send };
}

function charge(body = VECTOR.body): Request {
  return new Request(`http://sandbox.test${VECTOR.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
}

describe('signedFetch (contract §5 signing, §19 retries)', () => {
  afterEach(() => jest.useRealTimers());

  it('signs the request as the contract test vector does, over the bytes it sends', async () => {
    jest.useFakeTimers({ now: VECTOR.timestampMs });
    const { sent, send } = recorder();
    const response = await signedFetch(VECTOR, undefined, send)(charge());
    expect(response.status).toBe(200);
    expect(sent).toHaveLength(1);
    expect(sent[0].headers.get('authorization')).toBe(VECTOR.authorization);
    expect(sent[0].headers.get('timestamp')).toBe('1795334400');
    expect(sent[0].headers.get('content-type')).toBe('application/json');
    expect(sent[0].body).toBe(VECTOR.body);
    expect(sent[0].url).toBe(`http://sandbox.test${VECTOR.path}`);
  });

  it('signs a read over its path and query with an empty body', async () => {
    jest.useFakeTimers({ now: VECTOR.timestampMs });
    const { sent, send } = recorder();
    await signedFetch(VECTOR, undefined, send)(new Request('http://sandbox.test/sandbox/deliveries?limit=2'));
    const token = (sent[0].headers.get('authorization') ?? '').replace(/^Basic /, '');
    const [merchant, signature] = Buffer.from(token, 'base64').toString('utf8').split(':');
    const { requestSignature } = jest.requireActual<typeof import('@tps/contracts')>('@tps/contracts');
    expect(merchant).toBe('demo-merchant');
    expect(signature).toBe(
      requestSignature('demo-secret-key', '1795334400', 'GET', '/sandbox/deliveries?limit=2', ''),
    );
    expect(sent[0].body).toBeUndefined();
  });

  it('sends once by default, whatever the answer', async () => {
    const { sent, send } = recorder(503);
    expect((await signedFetch(VECTOR, undefined, send)(charge())).status).toBe(503);
    expect(sent).toHaveLength(1);
  });

  it('asks again with the same body after a 503 or a 504, signing each try anew, until an answer', async () => {
    jest.useFakeTimers({ now: VECTOR.timestampMs, doNotFake: ['setTimeout'] });
    const { sent, send } = recorder(503, 504);
    const sending = signedFetch(VECTOR, { attempts: 5, delayMs: 0 }, send)(charge());
    expect((await sending).status).toBe(200);
    expect(sent.map((s) => s.body)).toEqual([VECTOR.body, VECTOR.body, VECTOR.body]);
    expect(sent.every((s) => s.headers.get('authorization') === VECTOR.authorization)).toBe(true);
  });

  it('gives the last answer once its tries are spent', async () => {
    const { sent, send } = recorder(504, 504, 504);
    expect((await signedFetch(VECTOR, { attempts: 2, delayMs: 0 }, send)(charge())).status).toBe(504);
    expect(sent).toHaveLength(2);
  });

  it('never asks again after a 4xx: the request was answered', async () => {
    const { sent, send } = recorder(409);
    expect((await signedFetch(VECTOR, { attempts: 3, delayMs: 0 }, send)(charge())).status).toBe(409);
    expect(sent).toHaveLength(1);
  });

  it('does not repeat a request with no client_transaction_id to key it', async () => {
    const { sent, send } = recorder(503);
    const print = charge('{"commands":[]}');
    expect((await signedFetch(VECTOR, { attempts: 3, delayMs: 0 }, send)(print)).status).toBe(503);
    expect(sent).toHaveLength(1);
  });
});
