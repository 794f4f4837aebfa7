import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { json, NextFunction, Request, Response } from 'express';
import { ContractError } from '@tps/domain';
import { scanJson } from './json-scan';

/** Contract §4: a larger body is 413 PAR-005. */
export const BODY_LIMIT = '1mb';

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

/**
 * Runs on the raw bytes after they are read and before JSON.parse (the parser's `verify` hook):
 * keeps them for the signature check (contract §5) and refuses what the parser would take but
 * the contract does not (§4). A ContractError thrown here keeps its status and reaches the
 * exception filter as it is.
 */
export function inspectJsonBody(
  request: IncomingMessage & { rawBody?: Buffer },
  _response: unknown,
  bytes: Buffer,
  charset: string,
): void {
  request.rawBody = bytes;
  if (charset !== 'utf-8') throw new ContractError('PAR-001', 'request body must be JSON in UTF-8');
  const refusal = scanJson(bytes);
  if (refusal !== undefined) throw new ContractError(refusal.code, refusal.message, refusal.param);
}

/**
 * The one body parser of every app that serves HTTP: JSON only, at most BODY_LIMIT, inspected
 * before it is parsed. The app must be created with `bodyParser: false` and without `rawBody`
 * (Nest's own raw-body hook would replace the inspection; this one keeps the raw bytes too).
 */
export function useContractJsonBody(app: NestExpressApplication): void {
  app.use(refuseNonJsonBody);
  // Nest leaves `verify` out of its options type only because its `rawBody` option would take it.
  const options: Parameters<typeof json>[0] = { limit: BODY_LIMIT, verify: inspectJsonBody };
  app.useBodyParser('json', options);
}
