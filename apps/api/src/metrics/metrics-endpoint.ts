import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ContractError } from '@tps/domain';

const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

/** Whether the request carries `Authorization: Bearer <token>`, compared in constant time. */
export function bearerMatches(request: IncomingMessage, token: string): boolean {
  const header = request.headers.authorization;
  if (typeof header !== 'string' || !header.startsWith('Bearer ')) return false;
  return timingSafeEqual(digest(header.slice('Bearer '.length)), digest(token));
}

export function answerError(response: ServerResponse, error: ContractError): void {
  response.statusCode = error.status;
  response.setHeader('Content-Type', 'application/json; charset=utf-8');
  // The id assigned on the API's own port (docs/contract.md, "Request ids"); none on its own listener.
  const requestId = response.getHeader('Request-Id');
  response.end(JSON.stringify(error.toBody(typeof requestId === 'string' ? requestId : undefined)));
}

/**
 * Answers `GET /metrics` in the Prometheus text format; with a token, only a request that
 * carries it (401 AUTH-001 otherwise, in the contract's error body). It reads nothing outside
 * the process, so it answers while the database is away and while the replica drains.
 */
export async function serveMetrics(
  metrics: { scrape(): Promise<string>; contentType: string },
  token: string | undefined,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  if (token !== undefined && !bearerMatches(request, token)) {
    response.setHeader('WWW-Authenticate', 'Bearer');
    answerError(response, new ContractError('AUTH-001', 'GET /metrics needs its bearer token'));
    return;
  }
  try {
    const text = await metrics.scrape();
    response.setHeader('Content-Type', metrics.contentType);
    response.end(text);
  } catch {
    // Nothing a scrape reads can fail (it reads nothing outside the process); should it, the
    // scrape is lost, not the service.
    answerError(response, new ContractError('INT-001', 'metrics could not be read'));
  }
}
