import type { IncomingMessage, Server, ServerResponse } from 'node:http';

/**
 * How long a client may leave a connection idle before it sends on it again, as every answer's
 * `Keep-Alive: timeout=` says (Node's own default). fetch (undici) closes its idle connection
 * two seconds before that.
 */
const ADVERTISED_IDLE_S = 5;

/**
 * How long the service itself keeps an idle connection open (docs/contract.md, "Idle
 * connections"). Far past what it advertises: a replica starved of CPU for a few seconds runs its
 * timers before it reads what waits on its sockets, so with the two close together it would close
 * a connection that a client had just reused in time, and the client would get ECONNRESET for a
 * request the service never read. Also past the time for which a load balancer that ignores the
 * header keeps an idle connection to a replica: 60 s for nginx; seconds for HAProxy
 * (deploy/haproxy-cluster.cfg), which closes half of its idle ones every 5 s.
 */
const HELD_IDLE_MS = 65_000;

export function holdIdleConnections(server: Server): void {
  server.keepAliveTimeout = HELD_IDLE_MS;
}

/**
 * Tells the client the advertised idle time, not the held one: Node writes its own
 * `Keep-Alive` header (the held time) only when the answer sets none.
 */
export function advertiseIdleTime(
  _request: IncomingMessage,
  response: ServerResponse,
  next: (error?: unknown) => void,
): void {
  response.setHeader('Keep-Alive', `timeout=${ADVERTISED_IDLE_S}`);
  next();
}
