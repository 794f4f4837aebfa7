import type { Server } from 'node:http';
import type { Capacity } from './capacity';

/**
 * The global cap of sockets (contract §22): the server closes a connection at once past it
 * (Node's `maxConnections`, its `drop` event counted and logged), so that the process never runs
 * out of descriptors for its database and the connections it holds keep being answered.
 */
export function capSockets(server: Server, capacity: Capacity): void {
  const cap = capacity.caps.sockets;
  if (cap === undefined) return;
  server.maxConnections = cap;
  server.on('drop', () => capacity.socketDropped());
}
