import { connect } from 'node:net';
import { LISTEN_PATH, signRequest } from '@tps/contracts';
import { Stack } from '@tps/testing';

const ATTEMPTS = 200;

/** An upgrade request, then a reset (RST) after `afterMs`, before or while it is answered. */
function resetUpgrade(port: number, path: string, afterMs: number): Promise<void> {
  const signed = signRequest({ merchantId: 'acct_0', secret: 'not-the-secret', method: 'GET', path });
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
});
