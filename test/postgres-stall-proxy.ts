import { connect, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A TCP proxy between the apps and the machine's PostgreSQL, a database a network hop away that
 * can stall: while stalled, every byte either way waits (sessions stay open, statements hang),
 * and goes on when released, in order.
 */
export class PostgresStallProxy {
  private stalled = false;
  /** What waits while stalled, each with the socket it goes to, in the order it came. */
  private held: Array<{ to: Socket; chunk: Buffer }> = [];
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    private readonly target: { host: string; port: number },
  ) {
    server.on('connection', (client) => this.join(client));
  }

  /** A proxy on a free port of 127.0.0.1 in front of `target` (the machine's PostgreSQL). */
  static async start(target = { host: '127.0.0.1', port: 5432 }): Promise<PostgresStallProxy> {
    const proxy = new PostgresStallProxy(createServer(), target);
    await new Promise<void>((listening) => proxy.server.listen(0, '127.0.0.1', listening));
    return proxy;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** `url` (a PostgreSQL URL of the machine's server) through this proxy. */
  route(url: string): string {
    const through = new URL(url);
    through.host = `127.0.0.1:${this.port}`;
    return through.toString();
  }

  stall(): void {
    this.stalled = true;
  }

  release(): void {
    this.stalled = false;
    for (const { to, chunk } of this.held.splice(0)) if (!to.destroyed) to.write(chunk);
  }

  async close(): Promise<void> {
    this.release();
    for (const socket of this.sockets) socket.destroy();
    await new Promise((closed) => this.server.close(closed));
  }

  private join(client: Socket): void {
    const upstream = connect(this.target);
    for (const socket of [client, upstream]) {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      socket.on('error', () => undefined);
    }
    const pass = (to: Socket) => (chunk: Buffer) => {
      if (this.stalled) this.held.push({ to, chunk });
      else to.write(chunk);
    };
    client.on('data', pass(upstream));
    upstream.on('data', pass(client));
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  }
}
