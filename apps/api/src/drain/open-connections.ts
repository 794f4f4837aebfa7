import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';

/** Paths whose answer never ends by itself (the console's live stream): not waited for. */
const ENDLESS_PATH = /^\/sandbox\/events(?:[/?]|$)/;
/** How often a stop looks at its connections again. */
const POLL_MS = 50;

/**
 * The HTTP connections of the API's port, and when each went idle (between two requests), so
 * that a stopping replica ends them without resetting one that a caller is sending on: it stops
 * listening first, and ends a kept-alive connection only once it has been idle longer than the
 * answers tell clients they may keep one (`Keep-Alive: timeout=`), so that its client has let go
 * of it. Every answer of a drain closes its connection itself (`Connection: close`). Links (an
 * upgraded connection) and the console's live stream are not its to wait for.
 */
export class OpenConnections {
  /** Each connection, with when it went idle; undefined while a request is under way on it. */
  private readonly idleSince = new Map<Socket, number | undefined>();
  private server: Server | undefined;

  constructor(private readonly now: () => number = Date.now) {}

  watch(server: Server): void {
    this.server = server;
    server.on('connection', (socket: Socket) => {
      this.idleSince.set(socket, this.now());
      socket.once('close', () => this.idleSince.delete(socket));
    });
    server.on('request', (request: IncomingMessage, response: ServerResponse) => {
      const socket = request.socket;
      if (!this.idleSince.has(socket)) return;
      if (ENDLESS_PATH.test(request.url ?? '')) {
        this.idleSince.delete(socket);
        return;
      }
      this.idleSince.set(socket, undefined);
      response.once('close', () => {
        if (this.idleSince.has(socket)) this.idleSince.set(socket, this.now());
      });
    });
    server.on('upgrade', (request: IncomingMessage) => this.idleSince.delete(request.socket));
  }

  get count(): number {
    return this.idleSince.size;
  }

  /**
   * Takes no new connection; those open stay open. (http.Server#close would also end the idle
   * ones at once, while a request may be on its way on one: its caller would get a reset.)
   */
  stopListening(): void {
    if (this.server?.listening) NetServer.prototype.close.call(this.server);
  }

  /**
   * Resolves true once every connection has ended, ending each one idle for `idleMs`; false if
   * some are still open (a request under way) after `timeoutMs`.
   */
  async ended(idleMs: number, timeoutMs: number): Promise<boolean> {
    const deadline = this.now() + timeoutMs;
    for (;;) {
      const now = this.now();
      for (const [socket, since] of this.idleSince) {
        if (since !== undefined && now - since >= idleMs) {
          this.idleSince.delete(socket);
          socket.end();
        }
      }
      if (this.idleSince.size === 0) return true;
      if (now >= deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, Math.min(POLL_MS, deadline - now)));
    }
  }
}
