import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { EventEmitter } from 'node:events';
import { requestTraceparent, traceRequests } from './trace-requests';
import { SpanKind, Tracing } from './tracing';

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-0[01]$/;
const CALLER = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

describe('Tracing', () => {
  it('records one trace from the request over the link to the webhook attempt', async () => {
    const exporter = new InMemorySpanExporter();
    const tracing = Tracing.start('tps-test', {}, [new SimpleSpanProcessor(exporter)]);
    // The request's span travels with the request: what its handler sends down the link carries it.
    const request = { method: 'POST', headers: { traceparent: CALLER } } as unknown as IncomingMessage;
    const response = new EventEmitter() as unknown as ServerResponse;
    traceRequests(tracing)(request, response, () => undefined);
    const sent = requestTraceparent(request);
    const terminal = tracing.startSpan('terminal charge', { parent: sent });
    const attempt = tracing.startSpan('webhook attempt', {
      parent: tracing.traceparentOf(terminal),
      kind: SpanKind.CLIENT,
    });
    const header = tracing.traceparentOf(attempt);
    attempt.end();
    terminal.end();
    response.emit('finish');
    const spans = exporter.getFinishedSpans();
    await tracing.shutdown();
    expect(spans.map((span) => span.name)).toEqual(['webhook attempt', 'terminal charge', 'POST']);
    expect(new Set(spans.map((span) => span.spanContext().traceId))).toEqual(
      new Set(['4bf92f3577b34da6a3ce929d0e0e4736']),
    );
    const [webhook, link, server] = spans;
    expect(server?.parentSpanContext?.spanId).toBe('00f067aa0ba902b7');
    expect(link?.parentSpanContext?.spanId).toBe(server?.spanContext().spanId);
    expect(webhook?.parentSpanContext?.spanId).toBe(link?.spanContext().spanId);
    expect(TRACEPARENT.exec(header)?.slice(1)).toEqual([
      '4bf92f3577b34da6a3ce929d0e0e4736',
      webhook?.spanContext().spanId,
    ]);
  });

  it('starts a trace without a traceparent, or with a malformed one', () => {
    const tracing = Tracing.start('tps-test', {}, [new SimpleSpanProcessor(new InMemorySpanExporter())]);
    const fresh = tracing.traceparentOf(tracing.startSpan('POST', { parent: 'garbage' }));
    expect(fresh).toMatch(TRACEPARENT);
    expect(fresh).not.toContain('4bf92f3577b34da6a3ce929d0e0e4736');
  });

  it('records nothing without an exporter, yet carries the ids on', () => {
    const tracing = Tracing.start('tps-test', {});
    const span = tracing.startSpan('POST', { parent: CALLER });
    expect(span.isRecording()).toBe(false);
    const next = tracing.traceparentOf(span);
    expect(TRACEPARENT.exec(next)?.[1]).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    expect(next).not.toBe(CALLER);
    expect(tracing.traceparentOf(tracing.startSpan('POST'))).toMatch(TRACEPARENT);
  });
});
