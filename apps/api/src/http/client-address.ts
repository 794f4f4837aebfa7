import type { Request } from 'express';

/**
 * The client address the per-address limit and caps count (contract §22): the socket's, or behind
 * TRUSTED_PROXIES the client their X-Forwarded-For names (Express's `trust proxy`, bootstrap.ts).
 */
export function clientAddressOf(request: Request): string {
  return request.ip ?? request.socket.remoteAddress ?? 'unknown';
}
