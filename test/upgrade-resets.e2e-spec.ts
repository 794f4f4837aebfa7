import { connect } from 'node:net';
import { LISTEN_PATH, signRequest } from '@tps/contracts';
import { Stack } from '@tps/testing';
import { WebSocket } from 'ws';

const ATTEMPTS = 200;

const REFUSED = { merchantId: 'acct_0', secret: 'not-the-secret' };
const DEMO = { merchantId: 'demo-merchant', secret: 'demo-secret-key' };
/** Contract §6.1: a merchant holds at most this many `listen` connections on one process. */
const LISTEN_SOCKETS_PER_MERCHANT = 5;

/** An upgrade request, then a reset (RST) after `afterMs`, before or while it is answered. */
function resetUpgrade(
  port: number,
  path: string,
  afterMs: number,
  credentials: { merchantId: string; secret: string } = REFUSED,
): Promise<void> {
  const signed = signRequest({ ...credentials, method: 'GET', path });
  return new Promise<void>((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(
        `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n` +
          'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n' +
          `authorization: ${signed.authorization}\r\ntimestamp: ${signed.timestamp}\r\n\r\n`,
      );
      setTimeout(() => {
        socket.resetAndDestroy();
        resolve();
      }, afterMs);
    });
    socket.on('error', () => resolve());
  });
}

/**
 * Node takes the HTTP server's error handler off a socket before it hands it over as an upgrade:
 * a client that resets its upgrade request while the service checks or refuses it (a link
 * without the link token, a `listen` whose signature is looked up) costs the service nothing.
 */
describe('upgrade requests reset by their client', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await Stack.start({ withoutSimulator: true });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('leave the API up and answering', async () => {
    const port = Number(new URL(stack.apiUrl).port);
    for (let n = 0; n < ATTEMPTS; n++) {
      await resetUpgrade(port, n % 2 === 0 ? '/terminal-link' : LISTEN_PATH, n % 4);
    }
    expect((await fetch(`${stack.apiUrl}/health`)).status).toBe(200);
  });

  /**
   * A signed `listen` reset while its signature is checked: it counted against its merchant's
   * cap of connections and never gave its place back, and after a few the merchant was refused
   * 429 RATE-001 on this process until it restarted.
   */
  it("give a signed listen's place back to its merchant", async () => {
    const port = Number(new URL(stack.apiUrl).port);
    for (let n = 0; n < ATTEMPTS / 2; n++) await resetUpgrade(port, LISTEN_PATH, n % 5, DEMO);
    const opened: WebSocket[] = [];
    try {
      for (let n = 0; n < LISTEN_SOCKETS_PER_MERCHANT; n++) {
        const signed = signRequest({ ...DEMO, method: 'GET', path: LISTEN_PATH });
        const ws = new WebSocket(`${stack.apiUrl.replace(/^http/, 'ws')}${LISTEN_PATH}`, {
          headers: { ...signed },
        });
        opened.push(ws);
        const status = await new Promise<number>((resolve) => {
          ws.once('open', () => resolve(101));
          ws.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
          ws.once('error', () => resolve(0));
        });
        expect(status).toBe(101);
      }
    } finally {
      for (const ws of opened) ws.terminate();
    }
  });
});
