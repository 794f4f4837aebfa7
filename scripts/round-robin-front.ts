import { createConnection, createServer, type Server, type Socket } from 'node:net';

/** A back end that refused a connection is skipped for this long before it is tried again. */
const SKIP_AFTER_REFUSAL_MS = 1000;

/**
 * A load balancer for one machine: each connection goes to the next back end in turn, byte for
 * byte (HTTP, kept-alive requests and WebSocket links alike). A back end that refuses the
 * connection (stopped, or restarting) is skipped and the next one tried, so a caller sees an
 * error only when none accepts. A draining replica still accepts, and answers 503 with
 * `Connection: close`: the caller's next connection goes elsewhere.
 */
export function roundRobinFront(ports: readonly number[], host = '127.0.0.1'): Server {
  const skippedUntil = new Map<number, number>();
  let next = 0;

  const connect = (client: Socket, tried: number): void => {
    if (tried === ports.length) {
      client.destroy();
      return;
    }
    const now = Date.now();
    const port = ports[next++ % ports.length];
    if ((skippedUntil.get(port) ?? 0) > now && tried < ports.length - 1) {
      connect(client, tried + 1);
      return;
    }
    const upstream = createConnection({ port, host });
    let connected = false;
    upstream.once('connect', () => {
      connected = true;
      skippedUntil.delete(port);
      client.on('error', () => upstream.destroy());
      client.pipe(upstream).pipe(client);
      client.resume();
    });
    upstream.on('error', () => {
      if (connected) {
        client.destroy();
        return;
      }
      // Refused before a byte was sent: nothing reached this back end, so the next may take it.
      skippedUntil.set(port, now + SKIP_AFTER_REFUSAL_MS);
      connect(client, tried + 1);
    });
  };

  return createServer({ pauseOnConnect: true }, (client) => {
    client.on('error', () => undefined);
    connect(client, 0);
  });
}
