import type { IncomingMessage, ServerResponse } from 'node:http';
import { SpanKind, type Span, type Tracing } from './tracing';

const REQUEST_SPAN = Symbol('requestSpan');
type Traced = IncomingMessage & { [REQUEST_SPAN]?: { span: Span; tracing: Tracing } };

/**
 * Middleware: each request is a server span, continuing the caller's `traceparent` or starting a
 * trace. The span travels with the request object, read by `requestTraceparent` where an order
 * goes down the link: explicit, rather than a context that follows every promise (Node 20's
 * AsyncLocalStorage costs on each one). Install it before anything that may answer, so that
 * every request's log line names its trace, a body the parser refuses included.
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
    (request as Traced)[REQUEST_SPAN] = { span, tracing };
    response.once('finish', () => {
      const route = (request as IncomingMessage & { route?: { path?: unknown } }).route?.path;
      if (typeof route === 'string') span.updateName(`${request.method} ${route}`);
      span.setAttribute('http.response.status_code', response.statusCode);
      span.end();
    });
    next();
  };
}

/** The `traceparent` that makes the request's span the parent of what it sends on (contract, "Traces"). */
export function requestTraceparent(request: IncomingMessage): string | undefined {
  const traced = (request as Traced)[REQUEST_SPAN];
  return traced === undefined ? undefined : traced.tracing.traceparentOf(traced.span);
}

/** The request's span, for the ids its log line carries (contract, "Traces"). */
export function requestSpanOf(request: IncomingMessage): Span | undefined {
  return (request as Traced)[REQUEST_SPAN]?.span;
}
