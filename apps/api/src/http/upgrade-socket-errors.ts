import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';

/**
 * Node takes the HTTP server's error handler off a socket before it emits 'upgrade', and nothing
 * handles the socket's errors until a WebSocket takes it: a client that resets its upgrade while
 * it is checked or refused would otherwise take the whole process down. Its socket is closed.
 */
export function closeFailedUpgrades(server: Server): void {
  server.on('upgrade', (_request: IncomingMessage, socket: Duplex) => {
    socket.on('error', () => socket.destroy());
  });
}
