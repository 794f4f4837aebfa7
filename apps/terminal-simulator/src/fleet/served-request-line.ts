import type { TerminalRequest } from '@tps/link';
import { traceFieldsOf } from '@tps/observability';

/** The trace an order brought over the link (operations and print jobs carry one). */
function traceparentOf(request: TerminalRequest): string | undefined {
  switch (request.type) {
    case 'operation':
      return request.order.traceparent;
    case 'print':
      return request.job.traceparent;
    case 'search':
    case 'abort':
    case 'card':
    case 'events':
      return undefined;
  }
}

/**
 * The log line of a request a terminal served, from its uplink or its local network: what, for
 * which terminal, how it ended and how long it took; `trace_id` and `span_id` are those of the
 * span that sent it (the service's request, over the link), so the line leads to the request's
 * trace as the service's own line does (contract, "Traces"). No body: ids only.
 */
export function servedRequestLine(
  serial: string,
  request: TerminalRequest,
  outcome: string,
  durationMs: number,
): Record<string, unknown> {
  return {
    msg: `link ${request.type} ${serial} ${outcome} ${durationMs} ms`,
    link_request: request.type,
    terminal_serial: serial,
    outcome,
    duration_ms: durationMs,
    ...traceFieldsOf(traceparentOf(request)),
  };
}
