import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, HaproxyBalancer, poll } from '@tps/testing';

/**
 * What the compose profile's balancer (deploy/haproxy-cluster.cfg, run by Debian's HAProxy)
 * answers itself while no replica is in its rotation: the contract's 503 INT-002, and in the
 * sandbox profile the service's CORS headers and preflights, so that a point of sale in a browser
 * reads that 503 instead of failing its preflight. No replica runs: the balancer's two replica
 * addresses are ports nothing listens on, as when both replicas are down.
 */
const PREFLIGHT = {
  Origin: 'http://pos.example',
  'Access-Control-Request-Method': 'POST',
  'Access-Control-Request-Headers': 'authorization,timestamp,content-type',
};
const CHARGE = '/terminal/v1/SIM0000002/sync/charge';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** An answer as it came on the wire: its status, headers (names in lower case) and body. */
interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Writes `request` on a connection of its own, as is (so that it may be no valid HTTP at all), and
 * reads what comes back until the balancer closes the connection.
 */
async function exchange(port: number, request: string): Promise<RawAnswer> {
  const raw = await new Promise<string>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    socket.on('close', () => resolve(text));
    socket.on('error', reject);
    socket.setTimeout(20_000, () => socket.destroy());
  });
  const [head, ...body] = raw.split('\r\n\r\n');
  const [statusLine, ...fields] = head.split('\r\n');
  return {
    status: Number(/^HTTP\/1\.1 (\d{3}) /.exec(statusLine)?.[1]),
    headers: Object.fromEntries(
      fields.map((field) => [
        field.slice(0, field.indexOf(':')).toLowerCase(),
        field.slice(field.indexOf(':') + 1).trim(),
      ]),
    ),
    body: body.join('\r\n\r\n'),
  };
}

/** The service's CORS answer to a preflight in the sandbox profile (contract, "CORS"). */
const SANDBOX_PREFLIGHT_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET,POST,PATCH,DELETE',
  'access-control-allow-headers': 'Authorization,timestamp,Content-Type',
  'access-control-max-age': '600',
};

describe.each(['sandbox', 'production'] as const)("the balancer's own answers, %s profile", (profile) => {
  let dir: string;
  let balancer: HaproxyBalancer;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tps-balancer-own-'));
    balancer = await HaproxyBalancer.start(dir, [await freePort(), await freePort()], profile);
    await balancer.waitFor('api-1', 'DOWN');
    await balancer.waitFor('api-2', 'DOWN');
  }, 30_000);

  afterAll(async () => {
    await balancer?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("answers a request with the contract's 503 INT-002, its Request-Id and, in the sandbox, CORS", async () => {
    const answer = await fetch(`${balancer.url}${CHARGE}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'request-id': 'no-replica-1',
        origin: 'http://pos.example',
      },
      body: '{}',
    });
    expect({
      status: answer.status,
      body: await answer.json(),
      retryAfter: answer.headers.get('retry-after'),
      requestId: answer.headers.get('request-id'),
      allowOrigin: answer.headers.get('access-control-allow-origin'),
      exposed: answer.headers.get('access-control-expose-headers'),
    }).toEqual({
      status: 503,
      body: { type: 'INTERNAL', code: 'INT-002', message: expect.any(String), request_id: 'no-replica-1' },
      retryAfter: '1',
      requestId: 'no-replica-1',
      ...(profile === 'sandbox'
        ? { allowOrigin: '*', exposed: 'Retry-After,Location,Request-Id' }
        : { allowOrigin: null, exposed: null }),
    });
  });

  it('logs each of its answers with the Request-Id the answer carries', async () => {
    const answer = await fetch(`${balancer.url}${CHARGE}`, {
      method: 'POST',
      headers: { 'request-id': 'logged-1' },
    });
    expect(answer.headers.get('request-id')).toBe('logged-1');
    await poll(
      'the log line',
      async () => (/ 503 .*request_id=logged-1/.test(balancer.log) ? true : undefined),
      5000,
    );
  });

  /**
   * Requests that HAProxy's HTTP layer does not read at all, which it would answer with its
   * built-in HTML pages: each is answered in the contract's body with a Request-Id (the caller's
   * when its headers could be read), in the sandbox with the service's CORS headers, the connection
   * closed, and logged with that id and status.
   */
  const expectRefusal = async (
    answer: RawAnswer,
    status: number,
    code: string,
    requestId: string | RegExp,
  ): Promise<void> => {
    const id = answer.headers['request-id'];
    expect({
      status: answer.status,
      contentType: answer.headers['content-type'],
      connection: answer.headers.connection,
      requestId: id,
      body: JSON.parse(answer.body) as unknown,
      allowOrigin: answer.headers['access-control-allow-origin'],
    }).toEqual({
      status,
      contentType: 'application/json',
      connection: 'close',
      requestId: typeof requestId === 'string' ? requestId : expect.stringMatching(requestId),
      body: { type: 'PARAMETER', code, message: expect.any(String), request_id: id },
      allowOrigin: profile === 'sandbox' ? '*' : undefined,
    });
    await poll('the log line', async () => (logLineOf(id)?.includes(` ${status} `) ? true : undefined), 5000);
  };
  const logLineOf = (id: string): string | undefined =>
    balancer.log.split('\n').find((line) => line.endsWith(`request_id=${id}`));

  it("answers headers larger than it reads (20 KB) with the contract's 400 PAR-001 and a Request-Id of its own, and logs it", async () => {
    const answer = await exchange(
      balancer.port,
      `POST ${CHARGE} HTTP/1.1\r\nHost: balancer\r\nRequest-Id: large-1\r\nX-Padding: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    await expectRefusal(answer, 400, 'PAR-001', UUID);
  });

  it("answers a Transfer-Encoding other than chunked alone with the contract's 400 PAR-001 and the caller's Request-Id, and logs it", async () => {
    const answer = await exchange(
      balancer.port,
      `POST ${CHARGE} HTTP/1.1\r\nHost: balancer\r\nRequest-Id: gzip-"1"\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n`,
    );
    await expectRefusal(answer, 400, 'PAR-001', 'gzip-"1"');
  });

  it("answers what is not HTTP/1.1 with the contract's 400 PAR-001 and a Request-Id of its own, and logs it", async () => {
    const answer = await exchange(balancer.port, `POST ${CHARGE} HTTP/1.1\r\nHost balancer\r\n\r\n`);
    await expectRefusal(answer, 400, 'PAR-001', UUID);
  });

  if (profile === 'sandbox') {
    it("answers headers that never arrive whole with the contract's 408 PAR-007 and a Request-Id, and logs it", async () => {
      // The request line and one header, never the empty line: the balancer waits 10 s for it.
      const answer = await exchange(balancer.port, `POST ${CHARGE} HTTP/1.1\r\nHost: balancer\r\n`);
      await expectRefusal(answer, 408, 'PAR-007', UUID);
    }, 30_000);

    it("answers a body that never arrives whole with the contract's 408 PAR-007 and its Request-Id, and logs it", async () => {
      // Headers whole, a body of 100 bytes of which 10 come: the balancer waits 10 s for the rest.
      const answer = await exchange(
        balancer.port,
        `POST ${CHARGE} HTTP/1.1\r\nHost: balancer\r\nContent-Type: application/json\r\nContent-Length: 100\r\nRequest-Id: unfinished-1\r\n\r\n{"amount":`,
      );
      await expectRefusal(answer, 408, 'PAR-007', 'unfinished-1');
    }, 30_000);
  }

  it('gives a Request-Id of its own when the caller sent none, or one the service would not take', async () => {
    for (const sent of [undefined, 'x'.repeat(129)]) {
      const answer = await fetch(`${balancer.url}${CHARGE}`, {
        method: 'POST',
        headers: sent === undefined ? {} : { 'request-id': sent },
      });
      const body = (await answer.json()) as { request_id: string };
      expect(answer.headers.get('request-id')).toMatch(UUID);
      expect(body.request_id).toBe(answer.headers.get('request-id'));
    }
  });

  if (profile === 'sandbox') {
    it("answers a browser's preflight itself, as the service would, so that the browser reads the 503", async () => {
      const answer = await fetch(`${balancer.url}${CHARGE}`, { method: 'OPTIONS', headers: PREFLIGHT });
      expect(answer.status).toBe(204);
      expect(Object.fromEntries(answer.headers)).toMatchObject(SANDBOX_PREFLIGHT_HEADERS);
      expect(answer.headers.get('request-id')).toEqual(expect.any(String));
    });
  } else {
    it('grants no origin and answers no preflight, as the production profile', async () => {
      const answer = await fetch(`${balancer.url}${CHARGE}`, { method: 'OPTIONS', headers: PREFLIGHT });
      expect(answer.status).toBe(503);
      expect(answer.headers.get('access-control-allow-origin')).toBeNull();
    });
  }
});
