import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { poll, Stack, WebhookReceiver } from '@tps/testing';
import { amountOf, newBody, type Json } from './payment-helpers';

/**
 * docs/contract.md "Traces": a caller's W3C `traceparent` travels from the request over the
 * link to the simulator and out on the webhook attempts, and both apps export their spans over
 * OTLP/HTTP to OTEL_EXPORTER_OTLP_ENDPOINT, here a collector of the test's own.
 */

interface ExportedSpan {
  service: string;
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
}

/** OTLP/JSON ids are hex; a base64 form is read too. */
const hex = (id: string | undefined): string =>
  id === undefined || id === ''
    ? ''
    : /^[0-9a-f]+$/.test(id)
      ? id
      : Buffer.from(id, 'base64').toString('hex');

/** A minimal OTLP/HTTP (JSON) trace collector: keeps every span it is sent. */
class Collector {
  readonly spans: ExportedSpan[] = [];
  private readonly server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Json;
      for (const resourceSpans of body.resourceSpans ?? []) {
        const service = (resourceSpans.resource?.attributes ?? []).find(
          (attribute: Json) => attribute.key === 'service.name',
        )?.value?.stringValue;
        for (const scope of resourceSpans.scopeSpans ?? []) {
          for (const span of scope.spans ?? []) {
            this.spans.push({
              service,
              name: span.name,
              traceId: hex(span.traceId),
              spanId: hex(span.spanId),
              parentSpanId: hex(span.parentSpanId),
            });
          }
        }
      }
      response.setHeader('content-type', 'application/json');
      response.end('{}');
    });
  });

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

const CALLER_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN = '00f067aa0ba902b7';
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/;

describe('traces from the request to the webhook attempt', () => {
  let stack: Stack;
  let receiver: WebhookReceiver;
  let collector: Collector;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    collector = new Collector();
    const endpoint = await collector.listen();
    const otel = { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_BSP_SCHEDULE_DELAY: '100' };
    stack = await Stack.start({ apiEnv: otel, simulatorEnv: otel });
  });

  afterAll(async () => {
    await stack?.stop();
    await receiver?.close();
    await collector?.close();
  });

  it("carries the caller's trace over the link to the simulator and out on the webhook attempt", async () => {
    const body = newBody({ amount: amountOf(1000), events_webhook_url: receiver.url('/traced') });
    const ack = await stack
      .client()
      .send<Json>('POST', '/terminal/v1/SIM0000002/async/charge', JSON.stringify(body), {
        traceparent: `00-${CALLER_TRACE}-${CALLER_SPAN}-01`,
      });
    expect(ack.status).toBe(200);
    const approval = await poll(
      'the APPROVAL webhook',
      async () =>
        receiver.received.find((r) => r.path === '/traced' && (r.body as Json).status === 'APPROVAL'),
      15_000,
    );
    const [, webhookTrace, attemptSpan] = TRACEPARENT.exec(String(approval.headers.traceparent)) ?? [];
    expect(webhookTrace).toBe(CALLER_TRACE);

    const spans = await poll(
      'the spans of both apps',
      async () => {
        const inTrace = collector.spans.filter((span) => span.traceId === CALLER_TRACE);
        const attempt = inTrace.find((span) => span.spanId === attemptSpan);
        return attempt !== undefined && inTrace.some((span) => span.service === 'tps-simulator')
          ? inTrace
          : undefined;
      },
      15_000,
    );
    const request = spans.find((span) => span.name === 'POST /terminal/v1/:terminalSerial/async/charge');
    const terminal = spans.find((span) => span.name === 'terminal charge');
    const attempt = spans.find((span) => span.spanId === attemptSpan);
    expect(request).toMatchObject({ service: 'tps-api', parentSpanId: CALLER_SPAN });
    expect(terminal).toMatchObject({ service: 'tps-simulator', parentSpanId: request?.spanId });
    expect(attempt).toMatchObject({
      service: 'tps-api',
      name: 'webhook attempt',
      parentSpanId: terminal?.spanId,
    });
  });

  it("names the caller's trace on the simulator's lines: the link request it served, and a request to its own HTTP port", async () => {
    const trace = CALLER_TRACE.replace(/^4/, '6');
    const body = newBody({ amount: amountOf(1000) });
    const answer = await stack
      .client()
      .send<Json>('POST', '/terminal/v1/SIM0000001/sync/charge', JSON.stringify(body), {
        traceparent: `00-${trace}-${CALLER_SPAN}-01`,
      });
    expect(answer.status).toBe(200);
    const simulatorLines = (): Json[] =>
      (stack.simulator?.log ?? '')
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Json);
    const served = await poll(
      "the simulator's line of the operation",
      async () =>
        simulatorLines().find((line) => line.link_request === 'operation' && line.trace_id === trace),
      5_000,
    );
    // The span that sent it: the service's request, whose own line names the same trace.
    expect(served).toMatchObject({ terminal_serial: 'SIM0000001', outcome: 'ok' });
    expect(served.span_id).toMatch(/^[0-9a-f]{16}$/);
    expect(served.span_id).not.toBe(CALLER_SPAN);

    const health = await fetch(`${stack.simulator?.url}/health`, {
      headers: { traceparent: `00-${trace}-${CALLER_SPAN}-01` },
    });
    expect(health.status).toBe(200);
    const line = await poll(
      "the simulator's line of the HTTP request",
      async () => simulatorLines().find((l) => l.route === '/health' && l.trace_id === trace),
      5_000,
    );
    expect(line.span_id).toMatch(/^[0-9a-f]{16}$/);
    expect(line.span_id).not.toBe(CALLER_SPAN);
  });

  it("carries the print request's trace to the terminal's report and out on the print callback", async () => {
    const traceparent = `00-${CALLER_TRACE.replace(/^4/, '5')}-${CALLER_SPAN}-01`;
    const job = await stack.client().send<Json>(
      'POST',
      '/terminal/v1/SIM0000002/print',
      JSON.stringify({
        commands: [{ type: 'text', value: 'traced' }],
        webhookUrl: receiver.url('/printed'),
      }),
      { traceparent },
    );
    expect(job.status).toBeLessThan(300);
    const callback = await poll(
      'the print callback',
      async () => receiver.received.find((r) => r.path === '/printed'),
      15_000,
    );
    const [, trace] = TRACEPARENT.exec(String(callback.headers.traceparent)) ?? [];
    expect(trace).toBe(CALLER_TRACE.replace(/^4/, '5'));
  });

  it('starts a trace for a request that brings none, and carries it likewise', async () => {
    const body = newBody({ amount: amountOf(1000), events_webhook_url: receiver.url('/fresh') });
    const ack = await poll(
      'the terminal to be free',
      async () => {
        const answer = await stack.client().post<Json>('/terminal/v1/SIM0000002/async/charge', body);
        return answer.status === 409 ? undefined : answer;
      },
      10_000,
    );
    expect(ack.status).toBe(200);
    const approval = await poll(
      'the APPROVAL webhook',
      async () =>
        receiver.received.find((r) => r.path === '/fresh' && (r.body as Json).status === 'APPROVAL'),
      15_000,
    );
    const [, trace] = TRACEPARENT.exec(String(approval.headers.traceparent)) ?? [];
    expect(trace).toMatch(/^[0-9a-f]{32}$/);
    expect(trace).not.toBe(CALLER_TRACE);
    await poll(
      "the simulator's span in that trace",
      async () =>
        collector.spans.some((span) => span.traceId === trace && span.service === 'tps-simulator')
          ? true
          : undefined,
      15_000,
    );
  });
});
