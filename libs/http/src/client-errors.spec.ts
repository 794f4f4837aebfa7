import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { answerUnparsableRequests } from './client-errors';

/** Sends raw bytes and reads everything the server writes until it closes the connection. */
function exchange(port: number, raw: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(raw));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

function parsed(answer: string): { status: number; headers: string; body: unknown } {
  const [head, body] = answer.split('\r\n\r\n');
  return { status: Number(head.split(' ')[1]), headers: head, body: JSON.parse(body) as unknown };
}

describe('answerUnparsableRequests', () => {
  let server: Server;
  let port: number;

  beforeAll(async () => {
    server = createServer(
      { headersTimeout: 300, requestTimeout: 300, connectionsCheckingInterval: 50 },
      (_request, response) => response.end('ok'),
    );
    answerUnparsableRequests(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it("answers broken framing with the contract's 400 PAR-001 and a Request-Id", async () => {
    const answer = parsed(await exchange(port, 'POST / HTTP/1.1\r\nHost: x\r\nContent-Length: ten\r\n\r\n'));
    expect(answer.status).toBe(400);
    expect(answer.headers).toMatch(/^Request-Id: [0-9a-f-]{36}$/m);
    expect(answer.headers).toMatch(/^Content-Type: application\/json/m);
    expect(answer.body).toEqual({ type: 'PARAMETER', code: 'PAR-001', message: expect.any(String) });
  });

  it('answers headers too large with 400 PAR-001 saying so', async () => {
    const answer = parsed(
      await exchange(port, `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`),
    );
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      type: 'PARAMETER',
      code: 'PAR-001',
      message: expect.stringContaining('too large'),
    });
  });

  it('answers headers that never finish with 408 PAR-007', async () => {
    const answer = parsed(await exchange(port, 'GET / HTTP/1.1\r\nHost: x\r\n'));
    expect(answer.status).toBe(408);
    expect(answer.body).toEqual({ type: 'PARAMETER', code: 'PAR-007', message: expect.any(String) });
  });

  it('leaves a well-formed request alone', async () => {
    const answer = await exchange(port, 'GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK/);
  });
});
