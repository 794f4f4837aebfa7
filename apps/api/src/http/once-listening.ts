import type { Server } from 'node:http';
import type { HttpAdapterHost } from '@nestjs/core';

/** Resolves once the service's HTTP server accepts connections (at once if it already does). */
export function onceListening(host: HttpAdapterHost): Promise<void> {
  const server = host.httpAdapter.getHttpServer() as Server;
  if (server.listening) return Promise.resolve();
  return new Promise((resolve) => server.once('listening', () => resolve()));
}
