import { Tracing } from './tracing';
import { traceFieldsOf, traceFieldsOfSpan } from './trace-fields';

describe('trace fields of a log line', () => {
  it('reads the trace and span ids of a traceparent; none of a malformed one', () => {
    expect(traceFieldsOf('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01')).toEqual({
      trace_id: '4bf92f3577b34da6a3ce929d0e0e4736',
      span_id: '00f067aa0ba902b7',
    });
    expect(traceFieldsOf(undefined)).toBeUndefined();
    expect(traceFieldsOf('00-4bf92f35-00f067aa0ba902b7-01')).toBeUndefined();
  });

  it("names a span's own ids, in the trace it continues", () => {
    const span = Tracing.get().startSpan('GET /', {
      parent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
    });
    const fields = traceFieldsOfSpan(span);
    expect(fields.trace_id).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    expect(fields.span_id).toMatch(/^[0-9a-f]{16}$/);
    expect(fields.span_id).not.toBe('00f067aa0ba902b7');
  });
});
