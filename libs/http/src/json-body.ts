import type { IncomingHttpHeaders } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { ContractError } from '@tps/domain';

/**
 * Whether the request carries body bytes. An empty Content-Length counts as no body: fetch sends
 * `content-length: 0` on every bodiless POST, and such a request has nothing to refuse.
 */
export function announcesBody(headers: IncomingHttpHeaders): boolean {
  if (headers['transfer-encoding'] !== undefined) return true;
  const length = headers['content-length'];
  return length !== undefined && Number(length) > 0;
}

/** The one media type the JSON parser reads; parameters (charset) are the parser's to judge. */
export function isJsonMediaType(contentType: string | undefined): boolean {
  return contentType?.split(';')[0].trim().toLowerCase() === 'application/json';
}

/**
 * 415 PAR-006 for a body that is not JSON. Without it such a body is never parsed, so the
 * signature is checked against an empty body (401) or the fields look missing (400), and the
 * caller is told the wrong thing. It runs before authentication, like the 413 of the parser.
 */
export function refuseNonJsonBody(request: Request, _response: Response, next: NextFunction): void {
  if (announcesBody(request.headers) && !isJsonMediaType(request.headers['content-type'])) {
    next(
      new ContractError(
        'PAR-006',
        'the request body must be JSON sent with Content-Type: application/json (UTF-8)',
      ),
    );
    return;
  }
  next();
}
