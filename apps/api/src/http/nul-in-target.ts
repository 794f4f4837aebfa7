import type { IncomingMessage } from 'node:http';
import { ContractError } from '@tps/domain';

/** `%00`, which decodes to U+0000 (NUL), in any case of its hex digits. */
const ENCODED_NUL = /%00/;

/**
 * 400 PAR-002 for a request target (path or query) that holds `%00`, once the body has been read
 * under its rules and before the route and the signature (docs/contract.md §4): no path or query
 * parameter takes U+0000, and PostgreSQL's text cannot hold it, so the lookup of such an id was a
 * 500 there where SQLite answered 404.
 */
export function refuseNulInTarget(
  request: IncomingMessage,
  _response: unknown,
  next: (error?: unknown) => void,
): void {
  if (ENCODED_NUL.test(request.url ?? '')) {
    next(
      new ContractError('PAR-002', 'the request target holds %00 (U+0000, NUL), which no parameter takes'),
    );
    return;
  }
  next();
}
