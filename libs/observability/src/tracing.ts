import {
  defaultTextMapGetter,
  defaultTextMapSetter,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  TraceFlags,
  type Attributes,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  RandomIdGenerator,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';

export interface SpanStart {
  /** The W3C `traceparent` this span continues; without one (or a malformed one) a trace starts. */
  parent?: string;
  kind?: SpanKind;
  attributes?: Attributes;
}

/**
 * W3C trace context for one process (contract, "Traces"). Spans are recorded and
 * exported only when OTEL_EXPORTER_OTLP_ENDPOINT is set (or a test gives its own processor);
 * otherwise a span is only a pair of ids to carry on, which costs two random numbers.
 */
export class Tracing {
  private static current: Tracing | undefined;
  private readonly ids = new RandomIdGenerator();
  /** Its own, not the global one: ids are carried on before (and whether or not) `start` ran. */
  private readonly propagator = new W3CTraceContextPropagator();

  private constructor(
    private readonly tracer: Tracer | undefined,
    private readonly provider: BasicTracerProvider | undefined,
  ) {}

  /**
   * Installs the process's tracing: the W3C propagator and, when exporting, the SDK. Parents are
   * always given explicitly (a `traceparent`), never taken from a context that follows async
   * calls. `processors` replaces the OTLP export (tests: an in-memory exporter).
   */
  static start(
    service: string,
    env: Record<string, string | undefined>,
    processors?: SpanProcessor[],
  ): Tracing {
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    const exporting =
      processors ??
      (env.OTEL_EXPORTER_OTLP_ENDPOINT ? [new BatchSpanProcessor(new OTLPTraceExporter())] : []);
    let provider: BasicTracerProvider | undefined;
    if (exporting.length > 0) {
      provider = new BasicTracerProvider({
        resource: resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME ?? service }),
        spanProcessors: exporting,
      });
    }
    Tracing.current = new Tracing(provider?.getTracer(service), provider);
    return Tracing.current;
  }

  /** The process's tracing; ids only (nothing recorded) until `start` has run. */
  static get(): Tracing {
    Tracing.current ??= new Tracing(undefined, undefined);
    return Tracing.current;
  }

  startSpan(name: string, { parent, kind = SpanKind.INTERNAL, attributes }: SpanStart = {}): Span {
    const parentContext =
      parent === undefined
        ? ROOT_CONTEXT
        : this.propagator.extract(ROOT_CONTEXT, { traceparent: parent }, defaultTextMapGetter);
    if (this.tracer !== undefined) return this.tracer.startSpan(name, { kind, attributes }, parentContext);
    const inherited = trace.getSpanContext(parentContext);
    return trace.wrapSpanContext({
      traceId: inherited?.traceId ?? this.ids.generateTraceId(),
      spanId: this.ids.generateSpanId(),
      traceFlags: inherited?.traceFlags ?? TraceFlags.NONE,
    });
  }

  /** The `traceparent` that makes a span the parent of what comes next (a link message, a webhook). */
  traceparentOf(span: Span): string {
    const carrier: Record<string, string> = {};
    this.propagator.inject(trace.setSpan(ROOT_CONTEXT, span), carrier, defaultTextMapSetter);
    return carrier.traceparent ?? '';
  }

  /**
   * An outgoing call as a client span of `start.parent`: `call` gets the span's `traceparent` to
   * send along. Without a parent the call goes out untraced.
   */
  async aroundCall<T>(
    name: string,
    start: SpanStart,
    call: (traceparent: string | undefined) => Promise<T>,
  ): Promise<T> {
    if (start.parent === undefined) return call(undefined);
    const span = this.startSpan(name, { kind: SpanKind.CLIENT, ...start });
    try {
      return await call(this.traceparentOf(span));
    } catch (error) {
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw error;
    } finally {
      span.end();
    }
  }

  /** Sends what is still buffered; before the process exits. */
  async shutdown(): Promise<void> {
    await this.provider?.shutdown();
  }
}

export { SpanKind, SpanStatusCode } from '@opentelemetry/api';
export type { Span } from '@opentelemetry/api';
