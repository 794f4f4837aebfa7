import { connect } from 'node:net';
import { Stack } from '@tps/testing';

/**
 * docs/contract.md, "Security headers" and "Request ids": what every answer of the API carries,
 * read from the real built API over HTTP.
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const JSON_POLICY = ["default-src 'none'", "frame-ancestors 'none'"];

/** The directives of a Content-Security-Policy, whatever the spacing after each `;`. */
function directives(policy: string | null): string[] {
  return (policy ?? '').split(';').map((directive) => directive.trim());
}

/**
 * A GET with an Request-Id that fetch and node:http refuse to send (a control character): the
 * raw bytes over a socket. Answers with the status and the Request-Id answered.
 */
function getWithRawRequestId(url: string, id: string): Promise<[number, string | undefined]> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer within 10 s')));
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const head = Buffer.concat(chunks).toString('latin1').split('\r\n\r\n')[0];
      const status = Number(head.split(' ')[1]);
      const line = head.split('\r\n').find((header) => header.toLowerCase().startsWith('request-id:'));
      resolve([status, line?.slice('request-id:'.length).trim()]);
    });
    // Written, not ended: the server answers, then closes (Connection: close).
    socket.write(
      Buffer.from(
        `GET /health HTTP/1.1\r\nHost: ${hostname}\r\nRequest-Id: ${id}\r\nConnection: close\r\n\r\n`,
        'latin1',
      ),
    );
  });
}

describe('security headers (sandbox profile)', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await Stack.start({ withoutSimulator: true });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('a JSON answer loads nothing and is framed by nothing, with nosniff and no referrer', async () => {
    for (const path of ['/health', '/openapi.json', '/no-such-route']) {
      const answer = await fetch(`${stack.apiUrl}${path}`);
      expect([path, directives(answer.headers.get('content-security-policy'))]).toEqual([path, JSON_POLICY]);
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
      expect(answer.headers.get('referrer-policy')).toBe('no-referrer');
      expect(answer.headers.get('x-frame-options')).toBe('DENY');
      // A sandbox may be plain HTTP on a laptop: HSTS is the production profile's.
      expect(answer.headers.get('strict-transport-security')).toBeNull();
    }
  });

  it('/docs gets a policy Swagger UI works under: scripts of this origin only, framed by nothing', async () => {
    const answer = await fetch(`${stack.apiUrl}/docs`);
    expect(answer.status).toBe(200);
    const policy = directives(answer.headers.get('content-security-policy'));
    expect(policy).toEqual(
      expect.arrayContaining([
        "default-src 'self'",
        "script-src 'self'",
        "connect-src 'self'",
        "frame-ancestors 'none'",
      ]),
    );
    expect(policy.join(';')).not.toContain('unsafe-eval');
    expect(policy.find((directive) => directive.startsWith('script-src'))).not.toContain('unsafe-inline');
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    expect(answer.headers.get('referrer-policy')).toBe('no-referrer');
    // Its init script is a file, not inline: the policy holds for the page's own code too.
    expect(await answer.text()).toContain('swagger-ui-init.js');
  });

  it('/console keeps its own policy', async () => {
    const answer = await fetch(`${stack.apiUrl}/console`);
    expect(answer.status).toBe(200);
    expect(directives(answer.headers.get('content-security-policy'))).toEqual(
      expect.arrayContaining(["default-src 'self'", "connect-src 'self'", "frame-ancestors 'none'"]),
    );
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    expect(answer.headers.get('referrer-policy')).toBe('no-referrer');
  });

  it('a CORS preflight is still answered, with the headers, and Request-Id is exposed', async () => {
    const preflight = await fetch(`${stack.apiUrl}/terminal/v1/sync/charge`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://pos.example.test:8080',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,timestamp,content-type',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('request-id')).toMatch(UUID);
    const answer = await fetch(`${stack.apiUrl}/health`, {
      headers: { origin: 'http://pos.example.test:8080' },
    });
    expect(answer.headers.get('access-control-allow-origin')).toBe('*');
    expect(answer.headers.get('access-control-expose-headers')?.split(',')).toEqual(
      expect.arrayContaining(['Retry-After', 'Location', 'Request-Id']),
    );
  });
});

describe('request ids', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await Stack.start({ withoutSimulator: true });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('every kind of answer carries a new one: 2xx, 400 from the body scan before routing, 404, 401', async () => {
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    const answers = {
      ok: await fetch(`${stack.apiUrl}/health`),
      refusedBody: await fetch(`${stack.apiUrl}/terminal/v1/sync/charge`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: deep,
      }),
      noRoute: await fetch(`${stack.apiUrl}/no-such-route`),
      unsigned: await fetch(`${stack.apiUrl}/sandbox/clock`),
    };
    const seen = Object.entries(answers).map(([kind, answer]) => [
      kind,
      answer.status,
      answer.headers.get('request-id'),
    ]);
    expect(seen).toEqual([
      ['ok', 200, expect.stringMatching(UUID)],
      ['refusedBody', 400, expect.stringMatching(UUID)],
      ['noRoute', 404, expect.stringMatching(UUID)],
      ['unsigned', 401, expect.stringMatching(UUID)],
    ]);
    expect(await answers.refusedBody.json()).toEqual(expect.objectContaining({ code: 'PAR-001' }));
    expect(new Set(seen.map(([, , id]) => id)).size).toBe(seen.length);
  });

  it("echoes the caller's sane id, on a signed 2xx and on an error", async () => {
    const sent = 'checkout-7f3a/retry 2';
    const signed = await stack.client().send('GET', '/sandbox/clock', undefined, { 'request-id': sent });
    expect(signed.status).toBe(200);
    expect(signed.headers.get('request-id')).toBe(sent);
    const refused = await fetch(`${stack.apiUrl}/sandbox/clock`, { headers: { 'request-id': sent } });
    expect([refused.status, refused.headers.get('request-id')]).toEqual([401, sent]);
    const longest = 'x'.repeat(128);
    const kept = await fetch(`${stack.apiUrl}/health`, { headers: { 'request-id': longest } });
    expect(kept.headers.get('request-id')).toBe(longest);
  });

  it('replaces an id that is too long, holds a control character or is not ASCII', async () => {
    const tooLong = await fetch(`${stack.apiUrl}/health`, { headers: { 'request-id': 'x'.repeat(129) } });
    expect(tooLong.headers.get('request-id')).toMatch(UUID);
    // The other control characters never reach the app: Node's HTTP parser refuses them (400).
    for (const control of ['tab\there', 'e\xf1e']) {
      const [status, id] = await getWithRawRequestId(stack.apiUrl, control);
      expect([JSON.stringify(control), status, id]).toEqual([
        JSON.stringify(control),
        200,
        expect.stringMatching(UUID),
      ]);
    }
  });
});

describe('security headers (production profile)', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await Stack.start({
      withoutSimulator: true,
      apiEnv: { PROFILE: 'production', SECRETS_KEY: `prod-1:${'7'.repeat(64)}` },
    });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('adds Strict-Transport-Security, and the same policy and request id', async () => {
    const answer = await fetch(`${stack.apiUrl}/health`);
    expect(answer.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    expect(directives(answer.headers.get('content-security-policy'))).toEqual(JSON_POLICY);
    expect(answer.headers.get('request-id')).toMatch(UUID);
  });
});
