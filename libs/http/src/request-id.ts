import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** The header every answer carries, so that support can find a request from its answer. */
export const REQUEST_ID_HEADER = 'Request-Id';

/** Printable ASCII, space included, 1 to 128 characters: safe to echo and to write to a log line. */
const SANE_REQUEST_ID = /^[\x20-\x7e]{1,128}$/;

/** The caller's own id when it is sane, else a new random one. */
export function requestIdFor(sent: string | string[] | undefined): string {
  return typeof sent === 'string' && SANE_REQUEST_ID.test(sent) ? sent : randomUUID();
}

/**
 * Middleware that names every request before anything can answer it: set on the answer at
 * once, so a preflight, a refused body and an error all carry it.
 */
export function assignRequestId(request: IncomingMessage, response: ServerResponse, next: () => void): void {
  response.setHeader(REQUEST_ID_HEADER, requestIdFor(request.headers['request-id']));
  next();
}

/** The id of the request this answer is for, if `assignRequestId` named it. */
export function requestIdOf(response: ServerResponse): string | undefined {
  const id = response.getHeader(REQUEST_ID_HEADER);
  return typeof id === 'string' ? id : undefined;
}
