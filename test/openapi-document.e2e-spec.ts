import { runInNewContext } from 'node:vm';
import { requestSignature } from '@tps/contracts';
import { LIFECYCLE_STATUSES } from '@tps/domain';
import { Stack } from '@tps/testing';
import { signDocsRequest } from '../apps/api/src/openapi/docs-request-signer';
import type { Json } from './payment-helpers';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const VECTOR_BODY =
  '{"amount":{"iva":1600,"subtotal_iva":10000,"subtotal_iva0":0},"client_transaction_id":"6f1c2b4e-8d1a-4c3e-9b7a-2f5d6e7a8b9c"}';

/** What CI tooling reads in the served document, beyond what the linters check. */
describe('the OpenAPI document a client can trust', () => {
  let stack: Stack;
  let document: Json;
  let operations: Array<{ route: string; operation: Json }>;

  beforeAll(async () => {
    stack = await Stack.start({ withoutSimulator: true });
    document = (await (await fetch(`${stack.apiUrl}/openapi.json`)).json()) as Json;
    operations = Object.entries(document.paths as Record<string, Json>).flatMap(([path, item]) =>
      METHODS.filter((method) => item[method] !== undefined).map((method) => ({
        route: `${method.toUpperCase()} ${path}`,
        operation: item[method] as Json,
      })),
    );
  });

  afterAll(async () => {
    await stack?.stop();
  });

  /**
   * The options /docs hands Swagger UI: its served `swagger-ui-init.js` run in a context of its own
   * with `page` as the browser's globals and Swagger UI itself stood in for by a recorder.
   */
  async function swaggerUiOptions(page: object): Promise<{ requestInterceptor: typeof signDocsRequest }> {
    const init = await (await fetch(`${stack.apiUrl}/docs/swagger-ui-init.js`)).text();
    let options: unknown;
    const SwaggerUIBundle = Object.assign((given: unknown) => (options = given), {
      presets: { apis: {} },
      plugins: { DownloadUrl: {} },
    });
    const window = { location: { search: '', origin: stack.apiUrl } } as { onload?: () => void };
    runInNewContext(init, { ...page, window, SwaggerUIBundle, SwaggerUIStandalonePreset: {} });
    window.onload?.();
    return options as Awaited<ReturnType<typeof swaggerUiOptions>>;
  }

  const schema = (name: string): Json => document.components.schemas[name];
  const okSchema = (route: string): unknown => {
    const found = operations.find((o) => o.route === route)?.operation;
    const success = Object.entries(found?.responses ?? {}).find(([status]) => status.startsWith('2'));
    return (success?.[1] as Json | undefined)?.content?.['application/json']?.schema;
  };

  it('is OpenAPI 3.1, also served as YAML, with servers, tags and the signature scheme', async () => {
    expect(document.openapi).toBe('3.1.0');
    const yaml = await fetch(`${stack.apiUrl}/openapi.yaml`);
    expect(yaml.status).toBe(200);
    const text = await yaml.text();
    expect(text).toMatch(/^openapi: 3\.1\.0$/m);
    expect(text).toContain('/terminal/v1/{terminalSerial}/sync/charge:');
    expect(document.servers.length).toBeGreaterThan(0);
    expect(document.security).toEqual([{ merchantSignature: [] }]);
    expect(document.tags.map((tag: Json) => tag.name)).toEqual(
      expect.arrayContaining(['payments', 'transaction search', 'print', 'sandbox', 'health']),
    );
  });

  it("describes the signature exactly, and its test vector is the library's own", () => {
    const scheme = document.components.securitySchemes.merchantSignature as Json;
    expect(scheme).toMatchObject({ type: 'apiKey', in: 'header', name: 'Authorization' });
    const signature = requestSignature(
      'demo-secret-key',
      '1795334400',
      'POST',
      '/terminal/v1/SIM0000002/async/charge',
      VECTOR_BODY,
    );
    for (const part of ['HMAC-SHA512', 'timestamp + "\\n" + METHOD', VECTOR_BODY, signature]) {
      expect(scheme.description).toContain(part);
    }
  });

  it('names every unsigned route in the signature scheme: each public operation, the pages, /metrics', async () => {
    const scheme = document.components.securitySchemes.merchantSignature as Json;
    const unsigned = operations.filter(({ operation }) => operation.security?.length === 0);
    expect(unsigned.length).toBeGreaterThan(0);
    for (const { route } of unsigned) expect(scheme.description).toContain(`\`${route}\``);
    for (const page of ['`/openapi.json`', '`/openapi.yaml`', '`/console`', '`/docs`', '`GET /metrics`'])
      expect(scheme.description).toContain(page);
    // Each named one answers without a signature.
    for (const path of ['/', '/health', '/ready', '/openapi.yaml', '/docs', '/console']) {
      expect([path, (await fetch(`${stack.apiUrl}${path}`)).status]).not.toEqual([path, 401]);
    }
  });

  it("declares the signature's headers in the security scheme only: no operation asks for them", () => {
    for (const { route, operation } of operations) {
      const names = ((operation.parameters ?? []) as Json[]).map((parameter) =>
        parameter.$ref === undefined ? String(parameter.name).toLowerCase() : String(parameter.$ref),
      );
      expect([route, names]).toEqual([route, expect.not.arrayContaining(['timestamp', 'authorization'])]);
      expect([route, names]).toEqual([
        route,
        expect.not.arrayContaining(['#/components/parameters/timestamp']),
      ]);
    }
    expect(document.components.parameters?.timestamp).toBeUndefined();
    const scheme = document.components.securitySchemes.merchantSignature as Json;
    expect(scheme.description).toContain('`timestamp`: Unix time in seconds');
  });

  it('names no host or port: every URL in it is relative, whatever port the sandbox runs on', () => {
    expect(stack.api.port).not.toBe(3000);
    expect(document.servers).toEqual([expect.objectContaining({ url: '/' })]);
    // OpenAPI wants these absolute: none is given rather than one naming a host.
    expect(document.info.contact).toEqual({ name: 'Terminal Payment Service maintainers' });
    expect(document.info.license).toEqual({ name: 'UNLICENSED' });
    // The sandbox's own address, by the default port or the one it runs on (an example receiver's
    // URL on another port is no address of the sandbox).
    const own = new RegExp(`(localhost|127\\.0\\.0\\.1):(3000|${stack.api.port})\\b`);
    expect(JSON.stringify(document).match(own)).toBeNull();
  });

  it('gives every example client_transaction_id the form that "Try it out" replaces with a fresh one', async () => {
    const { requestInterceptor } = await swaggerUiOptions({ crypto, TextEncoder, URL, btoa });
    const examples = operations
      .map(({ route, operation }) => ({
        route,
        example: operation.requestBody?.content?.['application/json']?.example,
      }))
      .filter(({ example }) => typeof example?.client_transaction_id === 'string');
    expect(examples.length).toBeGreaterThan(10);
    for (const { route, example } of examples) {
      const body = JSON.stringify(example);
      const sent = await requestInterceptor({ url: `${stack.apiUrl}/x`, method: 'POST', headers: {}, body });
      const fresh = JSON.parse(sent.body as string).client_transaction_id;
      expect([route, fresh]).not.toEqual([route, example.client_transaction_id]);
      expect(sent.body).toBe(body.replace(example.client_transaction_id, fresh));
    }
    expect(document.info.description).toContain(
      'sends a fresh `client_transaction_id` in place of the example',
    );
  });

  it('lets "Try it out" in /docs sign requests in the page, with the source text Swagger UI gets', async () => {
    // The text served, run with only what a browser page has, signs a request the API accepts.
    const { requestInterceptor } = await swaggerUiOptions({ crypto, TextEncoder, URL, btoa });
    expect(requestInterceptor.name).toBe(signDocsRequest.name);
    const url = `${stack.apiUrl}/sandbox/clock`;
    const body = JSON.stringify({ advance_seconds: 0 });
    const signed = await requestInterceptor({
      url,
      method: 'POST',
      headers: { Authorization: 'demo-merchant:demo-secret-key', 'content-type': 'application/json' },
      body,
    });
    const answer = await fetch(url, { method: 'POST', headers: signed.headers, body });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ offset_seconds: 0 });
  });

  it('gives every operation, /health included, the body errors every request can meet', () => {
    for (const { route, operation } of operations) {
      expect([route, Object.keys(operation.responses)]).toEqual([
        route,
        expect.arrayContaining(['400', '413', '500']),
      ]);
    }
  });

  it('gives every signed operation its authentication, rate and internal errors', () => {
    const signed = operations.filter(({ operation }) => operation.security === undefined);
    // Unsigned by contract: the address itself, liveness, readiness (§14) and account creation (§14).
    const unsigned = ['GET /', 'GET /health', 'GET /ready', 'POST /sandbox/accounts'];
    expect(signed.length).toBe(operations.length - unsigned.length);
    for (const route of unsigned) {
      expect([route, operations.find((o) => o.route === route)?.operation.security]).toEqual([route, []]);
    }
    for (const { route, operation } of signed) {
      expect([route, Object.keys(operation.responses)]).toEqual([
        route,
        expect.arrayContaining(['401', '429', '500']),
      ]);
      const unauthorized = operation.responses['401'].content['application/json'];
      expect(unauthorized.schema.allOf[0]).toEqual({ $ref: '#/components/schemas/ErrorBodyDoc' });
      expect(unauthorized.schema.allOf[1].properties.code.enum).toEqual(['AUTH-001', 'AUTH-002']);
    }
  });

  it('gives every success answer a schema: sync operations, search, abort, sandbox routes', () => {
    // No JSON body by design: two 204s, the live stream (text/event-stream) and a conformance
    // run as JUnit XML (both checked below).
    const noJsonBody = [
      'DELETE /sandbox/webhook-secret',
      'DELETE /sandbox/accounts/me',
      'GET /sandbox/events',
      'GET /sandbox/conformance-runs/{id}/junit',
    ];
    const stream = operations.find((o) => o.route === 'GET /sandbox/events')?.operation;
    expect(Object.keys((stream?.responses['200'] as Json | undefined)?.content ?? {})).toEqual([
      'text/event-stream',
    ]);
    const junit = operations.find((o) => o.route === 'GET /sandbox/conformance-runs/{id}/junit')?.operation;
    expect(Object.keys((junit?.responses['200'] as Json | undefined)?.content ?? {})).toEqual([
      'application/xml',
    ]);
    const noSchema = operations
      .filter(({ route, operation }) => !noJsonBody.includes(route) && operation.responses)
      .filter(({ route }) => okSchema(route) === undefined)
      .map(({ route }) => route);
    expect(noSchema).toEqual([]);
    const authorization = { $ref: '#/components/schemas/AuthorizationResponseDoc' };
    for (const route of [
      'POST /terminal/v1/sync/charge',
      'POST /terminal/v1/{terminalSerial}/sync/refund',
      'POST /authorization',
    ]) {
      expect([route, okSchema(route)]).toEqual([route, authorization]);
    }
    expect(okSchema('POST /terminal/v1/sync/transaction_search_local')).toEqual({
      $ref: '#/components/schemas/SearchAnswerDoc',
    });
  });

  it('declares the route-specific codes: a follow-up can meet TRX-003 and NF-001', () => {
    const voidRoute = operations.find((o) => o.route === 'POST /terminal/v1/sync/void')?.operation as Json;
    expect(
      voidRoute.responses['409'].content['application/json'].schema.allOf[1].properties.code.enum,
    ).toEqual(expect.arrayContaining(['TRX-003', 'TER-003', 'TER-104']));
    expect(
      voidRoute.responses['404'].content['application/json'].schema.allOf[1].properties.code.enum,
    ).toEqual(expect.arrayContaining(['NF-001', 'NF-002']));
    expect(voidRoute.responses['503']).toBeDefined();
  });

  it('is as strict as the server about bodies and as precise about fields', () => {
    for (const name of [
      'AsyncChargeDto',
      'AmountDto',
      'ExtraTaxesDto',
      'CreatePrintJobDto',
      'TextCommandDto',
    ]) {
      expect([name, schema(name).additionalProperties]).toEqual([name, false]);
    }
    expect(schema('TransactionSearchDto').required ?? []).not.toContain('limit');
    expect(schema('TransactionSearchDto').properties.limit.default).toBeUndefined();
    const event = schema('TransactionEventDoc').properties;
    expect(event.interaction_attempt.type).toBe('integer');
    expect(event.occurred_at.format).toBe('date-time');
  });

  it('describes the webhooks: every status after the acknowledgement, and the print callback', () => {
    const hooks = document.webhooks as Record<string, Json>;
    const statuses = LIFECYCLE_STATUSES.filter((status) => status !== 'TERMINAL_ACKNOWLEDGED');
    expect(Object.keys(hooks).sort()).toEqual(
      [...statuses.map((status) => `transaction.${status}`), 'print.finished'].sort(),
    );
    for (const hook of Object.values(hooks)) {
      expect(hook.post.parameters.map((p: Json) => p.name)).toEqual([
        'webhook-id',
        'webhook-timestamp',
        'webhook-signature',
      ]);
    }
    expect(hooks['print.finished'].post.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/PrintWebhookPayloadDoc',
    });
    // The service sends the print callback (the terminal only reports the job's end), keyed by the job.
    expect(hooks['print.finished'].post.description).toMatch(/^Sent by the service/);
    const webhookId = (hooks['print.finished'].post.parameters as Json[]).find(
      (p) => p.name === 'webhook-id',
    );
    expect(webhookId?.description).toContain('`printJobId`');
  });
});
