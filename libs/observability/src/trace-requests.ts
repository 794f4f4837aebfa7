import type { IncomingMessage, ServerResponse } from 'node:http';
import { SpanKind, type Tracing } from './tracing';

/**
 * Middleware: each request is a server span, continuing the caller's `traceparent` or starting a
 * trace, and the active one while its handler runs (so an order sent down the link carries it).
 * Install it after the body parser: a body's stream events do not keep the context.
 */
export function traceRequests(
  tracing: Tracing,
): (request: IncomingMessage, response: ServerResponse, next: () => void) => void {
  return (request, response, next) => {
    const sent = request.headers.traceparent;
    const span = tracing.startSpan(request.method ?? 'HTTP', {
      parent: typeof sent === 'string' ? sent : undefined,
      kind: SpanKind.SERVER,
    });
    response.once('finish', () => {
      const route = (request as IncomingMessage & { route?: { path?: unknown } }).route?.path;
      if (typeof route === 'string') span.updateName(`${request.method} ${route}`);
      span.setAttribute('http.response.status_code', response.statusCode);
      span.end();
    });
    tracing.withSpan(span, next);
  };
}
