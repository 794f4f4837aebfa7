import type { Span } from '@opentelemetry/api';

/** The ids a log line carries so that a reader goes from it to its trace (contract, "Traces"). */
export interface TraceFields {
  trace_id: string;
  span_id: string;
}

const TRACEPARENT = /^[0-9a-f]{2}-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}$/;

export function traceFieldsOfSpan(span: Span): TraceFields {
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}

/** The ids of a W3C `traceparent`; none for a missing or malformed one. */
export function traceFieldsOf(traceparent: string | undefined): TraceFields | undefined {
  const match = traceparent === undefined ? null : TRACEPARENT.exec(traceparent);
  return match === null ? undefined : { trace_id: match[1], span_id: match[2] };
}
