import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy on 127.0.0.1 in front of a server (the machine's PostgreSQL by default) that makes
 * it a network hop away, and a bad one on demand: each chunk delayed each way (`latencyMs`),
 * everything held while stalled (sessions stay open, statements hang) and passed on in order when
 * released, or every connection cut at once.
 */
export class TcpFaultProxy {
  /** Added to each chunk, each way. */
  latencyMs = 0;
  private stalled = false;
  private held: Array<{ to: Socket; chunk: Buffer }> = [];
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    private readonly target: { host: string; port: number },
  ) {
    server.on('connection', (client) => this.join(client));
  }

  static async start(target = { host: '127.0.0.1', port: 5432 }): Promise<TcpFaultProxy> {
    const proxy = new TcpFaultProxy(createServer(), target);
    await new Promise<void>((listening) => proxy.server.listen(0, '127.0.0.1', listening));
    return proxy;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** `url` (a URL of the target server) through this proxy. */
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

  /** Cuts every connection open now; new ones are let through. */
  cut(): void {
    this.held = [];
    for (const socket of this.sockets) socket.destroy();
  }

  async close(): Promise<void> {
    this.cut();
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
      const forward = (): void => {
        if (this.stalled) this.held.push({ to, chunk });
        else if (!to.destroyed) to.write(chunk);
      };
      // Chunks keep their order: each waits the same delay after the one before it came.
      if (this.latencyMs > 0) setTimeout(forward, this.latencyMs);
      else forward();
    };
    client.on('data', pass(upstream));
    upstream.on('data', pass(client));
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  }
}
