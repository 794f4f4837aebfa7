import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { FrontendMessageCounter, type KindCounts, type MessageCounts } from './pg-message-counter';

/**
 * A TCP proxy on 127.0.0.1 between one app and the PostgreSQL server, counting the messages the
 * app sends (by type, over all its connections) so a benchmark can report real round trips and
 * statements per operation. The app's DATABASE_URL points at the proxy; the database name travels
 * in the startup message, so one proxy serves any database on that server.
 */
export class PgCountingProxy {
  private readonly counters = new Set<FrontendMessageCounter>();
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(target: { host: string; port: number }): Promise<PgCountingProxy> {
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', resolve);
    });
    const address = server.address();
    const proxy = new PgCountingProxy(
      server,
      typeof address === 'object' && address !== null ? address.port : 0,
    );
    server.on('connection', (client: Socket) => proxy.relay(client, target));
    return proxy;
  }

  /** `url` (a postgres:// URL of the target server) routed through this proxy. */
  route(url: string): string {
    const parsed = new URL(url);
    parsed.hostname = '127.0.0.1';
    parsed.port = String(this.port);
    return parsed.toString();
  }

  /** Messages sent so far by type, summed over every connection, open or closed. */
  counts(): MessageCounts {
    const total: MessageCounts = {};
    for (const counter of this.counters)
      for (const [type, n] of Object.entries(counter.counts)) total[type] = (total[type] ?? 0) + n;
    return total;
  }

  /** Statements run so far by kind, summed over every connection, open or closed. */
  kinds(): KindCounts {
    const total: KindCounts = {};
    for (const counter of this.counters)
      for (const [kind, n] of Object.entries(counter.kinds)) total[kind] = (total[kind] ?? 0) + n;
    return total;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private relay(client: Socket, target: { host: string; port: number }): void {
    const counter = new FrontendMessageCounter();
    this.counters.add(counter);
    const upstream = createConnection(target);
    for (const socket of [client, upstream]) {
      this.sockets.add(socket);
      socket.setNoDelay(true);
      socket.on('close', () => this.sockets.delete(socket));
      // A reset on one side ends the other: the app sees its connection fail, as without the proxy.
      socket.on('error', () => undefined);
    }
    client.on('data', (chunk: Buffer) => counter.feed(chunk));
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  }
}
