import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { ERROR_CATALOGUE, type ErrorCode } from '@tps/domain';
import { REQUEST_ID_HEADER, requestIdFor } from './request-id';

/** Why Node gave up on a request before any route saw it, as the contract's code and words. */
function refusalOf(error: NodeJS.ErrnoException): { code: ErrorCode; message: string } {
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return { code: 'PAR-007', message: 'the request did not arrive whole in time: nothing was done' };
  if (error.code === 'HPE_HEADER_OVERFLOW')
    return { code: 'PAR-001', message: 'the request headers are too large: nothing was done' };
  return { code: 'PAR-001', message: 'the request is not valid HTTP/1.1: nothing was done' };
}

const REASONS: Partial<Record<number, string>> = { 400: 'Bad Request', 408: 'Request Timeout' };

/**
 * The contract's error body, with a Request-Id, written on a socket that no route answers (a
 * request the parser refused, an upgrade refused); the connection closes. `retryAfterSeconds`:
 * when waiting helps, as on a route's 429.
 */
export function answerOnSocket(
  socket: Duplex,
  code: ErrorCode,
  message: string,
  retryAfterSeconds?: number,
): void {
  const { status, type } = ERROR_CATALOGUE[code];
  const body = JSON.stringify({ type, code, message });
  socket.end(
    [
      `HTTP/1.1 ${status} ${REASONS[status] ?? 'Refused'}`,
      'Content-Type: application/json; charset=utf-8',
      `Content-Length: ${Buffer.byteLength(body)}`,
      `${REQUEST_ID_HEADER}: ${requestIdFor(undefined)}`,
      ...(retryAfterSeconds === undefined ? [] : [`Retry-After: ${retryAfterSeconds}`]),
      'Connection: close',
      '',
      body,
    ].join('\r\n'),
  );
}

/**
 * Answers a request the HTTP parser refused (broken framing, headers too large, headers never
 * finished) in the contract's error body with a Request-Id, as every other answer, where Node
 * would write a bare status line. The connection closes: its framing cannot be trusted.
 */
export function answerUnparsableRequests(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const { code, message } = refusalOf(error);
    answerOnSocket(socket, code, message);
  });
}
