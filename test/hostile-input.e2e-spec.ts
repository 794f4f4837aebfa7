import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import fc from 'fast-check';
import { signRequest } from '@tps/contracts';
import { ERROR_CATALOGUE, isErrorCode } from '@tps/domain';
import { OpenApiConformance, sqliteRows, Stack } from '@tps/testing';
import { describeOnStores } from './stores';
import {
  ALWAYS_REFUSED,
  fieldPaths,
  hostilePayload,
  paramOf,
  valueAt,
  withRawAt,
  wrongTypeFor,
  type Json,
  type JsonObject,
  type Payload,
} from './hostile-payloads';

/**
 * Fuzzing every route the OpenAPI document lists (so a route added later is covered without
 * touching this file), signed and unsigned, with random and mutated bodies, the hostile bodies
 * of contract §4 (deep nesting, null and wrong types in every field, duplicate and prototype keys,
 * lone surrogates, huge numbers and strings, empty and non-JSON bodies), hostile headers and
 * paths. Every answer is a 2xx or a 4xx in the contract's shape, within REQUEST_TIMEOUT_MS.
 */
const RUNS = 1500;
/** A valid sync operation on an instant terminal answers in milliseconds; no answer by then is a hang. */
const REQUEST_TIMEOUT_MS = 10_000;
/** Fixed, so a failure replays; HOSTILE_SEED explores others. */
const SEED = Number(process.env.HOSTILE_SEED ?? 20261126);
// Credentials and bindings must survive; the webhook secret and the sandbox clock are settings
// that the fuzzer may change legitimately through their own routes.
const DEMO = { merchantId: 'demo-merchant', secret: 'demo-secret-key' };
const CREDENTIALS =
  'SELECT merchant_id, secret_key, bound_terminal_serial FROM merchants ORDER BY merchant_id';
/** A frame of a V8 stack trace, as the exception filter logs it for a 500. */
const STACK_FRAME = /\n\s+at \S.*:\d+:\d+/;

interface Route {
  method: string;
  template: string;
  /** Whether the document gives the operation a request body. */
  takesBody: boolean;
}

interface Answer {
  route: string;
  status: number;
  text: string;
  ms: number;
}

const amount = () => ({
  iva: 1600,
  subtotal_iva: 10000,
  subtotal_iva0: 0,
  extra_taxes: { airport_tax: 0, iac: 0, ice: 0, travel_agency: 0 },
});

/**
 * Contract §14: a reset erases the caller's transactions and account creation adds merchants, by
 * design, so "nothing stored is lost" below cannot hold for what they take; they get only bodies
 * that every route refuses (ALWAYS_REFUSED), and sandbox-accounts.e2e-spec.ts sends them more.
 */
const CHANGE_WHAT_IS_STORED = ['POST /sandbox/reset', 'POST /sandbox/accounts'];

/** A plausible body for the route, for mutation: the fuzzer starts near what the service accepts. */
function validBodyFor(template: string): JsonObject {
  const id = randomUUID();
  if (template.endsWith('/print'))
    return {
      commands: [{ type: 'text', value: 'hello', align: 'center' }, { type: 'cut' }],
      externalReference: 'x',
    };
  if (template.includes('/sandbox/clock')) return { advance_seconds: 60 };
  // A port nothing listens on, one case: a run the fuzzer starts makes no charge and ends at once.
  if (template.startsWith('/sandbox/conformance-runs'))
    return { url: 'http://127.0.0.1:9/hook', cases: ['print-duplicate'] };
  if (template.endsWith('/card')) return { action: 'present', reading_type: 'CHIP' };
  if (template.startsWith('/sandbox/terminals')) return { pace: 'instant', printer: 'ok', room: 'back' };
  if (/(capture|void|refund|re_authorization|pos_tip)$/.test(template))
    return { client_transaction_id: id, transaction_reference: randomUUID(), amount: amount(), tip: 100 };
  if (template.endsWith('abort'))
    return { client_transaction_id: id, target_client_transaction_id: randomUUID() };
  if (template.includes('transaction_search')) return { limit: 5, status: 'APPROVAL' };
  return { client_transaction_id: id, amount: amount(), metadata: { reference: 'r', device: 'd' } };
}

const hostileString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    '💳',
    '../../etc/passwd',
    '%00',
    '<script>',
    "' OR 1=1 --",
    'NaN',
    '-1',
    '1e309',
    '__proto__',
    'constructor',
  ),
  fc.string({ minLength: 2000, maxLength: 5000 }),
);
const hostileValue: fc.Arbitrary<Json> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<Json>,
  hostileString,
  fc.constantFrom<Json>(-1, 0, 1.5, 2 ** 53, -(2 ** 31), 1e308, [], {}, null, true, '16'),
);

function mutate(body: JsonObject, key: string, action: number, value: Json): JsonObject {
  const copy = JSON.parse(JSON.stringify(body)) as JsonObject;
  const keys = Object.keys(copy);
  const target = keys.length > 0 ? keys[Math.abs(key.length) % keys.length] : key;
  switch (action) {
    case 0:
      delete copy[target];
      return copy;
    case 1:
      copy[target] = value;
      return copy;
    case 2:
      copy[key.length > 0 ? key : 'extra'] = value;
      return copy;
    default: {
      const nested = copy.amount;
      if (typeof nested === 'object' && nested !== null && !Array.isArray(nested)) {
        nested[Object.keys(nested)[action % Object.keys(nested).length]] = value;
      } else copy[target] = value;
      return copy;
    }
  }
}

/** Header sets a hostile caller sends; `body` marks those that change how the body is read. */
const HOSTILE_HEADERS: Array<{ headers: Array<[string, string]>; body?: boolean }> = [
  { headers: [] },
  { headers: [['authorization', `Basic ${'A'.repeat(6000)}`]] },
  { headers: [['authorization', 'Basic Og==']] },
  { headers: [['authorization', 'Bearer \u00ff\u00fe']] },
  { headers: [['timestamp', '1e309']] },
  { headers: [['timestamp', '-1']] },
  { headers: [['timestamp', '99999999999999999999999']] },
  { headers: [['timestamp', '']] },
  { headers: [['content-encoding', 'gzip']], body: true },
  { headers: [['content-encoding', 'x-unknown']], body: true },
  { headers: [['content-type', 'application/json; charset=utf-16']], body: true },
  { headers: [['content-type', 'application/json; charset=utf8']], body: true },
  { headers: [['content-type', 'application/json; charset="']], body: true },
  { headers: [['content-type', 'application/json, text/plain']], body: true },
  { headers: [['accept', 'application/xml']] },
  { headers: [['accept', 'text/event-stream']] },
  { headers: [['accept', '*/*;q=abc, \u00e9']] },
  { headers: [['x-forwarded-for', '::1, <script>, 999.1.1.1']] },
  { headers: [['traceparent', '00-zz-zz-zz']] },
  { headers: [['request-id', 'r'.repeat(4000)]] },
  { headers: [['host', 'evil.example:99999']] },
  { headers: [['origin', 'null']] },
];

const HOSTILE_PATH_ENDS = [
  '/x',
  '/../sandbox',
  '//',
  '?q=1',
  '%2e%2e',
  '/%ZZ',
  '/%00',
  '/..%2f..%2fetc%2fpasswd',
  '/%F0%9F%92%B3',
  '/%C0%AE%C0%AE',
  `/${'a'.repeat(4000)}`,
  '?client_transaction_id=a&client_transaction_id=b',
  '?__proto__[polluted]=1&constructor[prototype][polluted]=1',
  '?limit=1e309&cursor=%ZZ',
  '?a[b][c][d][e][f][g][h][i][j][k]=1',
];

const BODY_KINDS = [
  ...['mutated', 'mutated', 'json', 'raw', 'none', 'empty'],
  ...['deep', 'deep', 'null', 'null', 'wrong-type', 'wrong-type', 'duplicate', 'surrogate', 'prototype'],
  ...['infinite', 'huge-number', 'huge-string', 'non-json'],
];

/** What an answer was; a hang or a dropped connection rejects, and fails the property. */
function send(
  url: string,
  method: string,
  headers: Array<[string, string]>,
  body: Buffer | undefined,
): Promise<{ status: number; text: string; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    // Repeated names stay repeated: a header sent twice is itself hostile.
    const raw: Record<string, string | string[]> = {};
    for (const [name, value] of headers) {
      const earlier = raw[name];
      raw[name] = earlier === undefined ? value : [earlier, value].flat();
    }
    if (body !== undefined) raw['content-length'] = String(body.length);
    const outgoing = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method,
        path: url.slice(target.origin.length),
        headers: raw,
      },
      (response) => {
        // A live stream (GET /sandbox/events) never ends: its status and headers are the answer.
        if (response.headers['content-type']?.startsWith('text/event-stream') === true) {
          response.destroy();
          resolve({ status: response.statusCode ?? 0, text: '', ms: performance.now() - started });
          return;
        }
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            text: Buffer.concat(chunks).toString('utf8'),
            ms: performance.now() - started,
          }),
        );
        response.on('error', reject);
      },
    );
    outgoing.setTimeout(REQUEST_TIMEOUT_MS, () =>
      outgoing.destroy(new Error(`${method} ${url.slice(0, 200)}: no answer in ${REQUEST_TIMEOUT_MS} ms`)),
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

// PostgreSQL refuses what SQLite stores as sent (a NUL in a string): both stores are tried.
describeOnStores('hostile input on every route', (store) => {
  let stack: Stack;
  let routes: Route[];
  let conformance: OpenApiConformance;

  beforeAll(async () => {
    stack = await Stack.start({ store });
    const document = (await (await fetch(`${stack.apiUrl}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { requestBody?: unknown }>>;
    };
    conformance = await OpenApiConformance.load(stack.apiUrl);
    routes = Object.entries(document.paths).flatMap(([template, operations]) =>
      Object.entries(operations).map(([method, operation]) => ({
        method: method.toUpperCase(),
        template,
        takesBody: operation.requestBody !== undefined,
      })),
    );
  });

  afterAll(async () => {
    await stack?.stop();
  });

  async function counts(): Promise<Record<string, number>> {
    const result: Record<string, number> = {};
    for (const table of ['merchants', 'terminals', 'transactions', 'transaction_events']) {
      const [row] = await stack.store.rows<{ n: number }>('api', `SELECT COUNT(*) AS n FROM ${table}`);
      result[table] = row.n;
    }
    return result;
  }

  it('refuses null, and a value of another type, in every field of every body the document takes', async () => {
    const bodied = routes.filter((route) => route.takesBody);
    expect(bodied.length).toBeGreaterThan(10);
    let checked = 0;
    for (const route of bodied) {
      const path = route.template.replace(/\{[^}]+\}/g, 'SIM0000001');
      const valid = validBodyFor(route.template);
      for (const field of fieldPaths(valid)) {
        for (const [kind, raw] of [
          ['null', 'null'],
          ['wrong type', JSON.stringify(wrongTypeFor(valueAt(valid, field), checked))],
        ]) {
          const body = withRawAt(valid, field, raw);
          const signed = signRequest({ ...DEMO, method: route.method, path, body });
          const headers: Array<[string, string]> = [
            ['authorization', signed.authorization],
            ['timestamp', signed.timestamp],
            ['content-type', 'application/json'],
          ];
          const { status, text } = await send(
            `${stack.apiUrl}${path}`,
            route.method,
            headers,
            Buffer.from(body),
          );
          const context = `${route.method} ${path} ${kind} at ${paramOf(field)}: ${body}`;
          expect(conformance.problem(route.method, path, status, text)).toBeUndefined();
          const error = JSON.parse(text) as Record<string, unknown>;
          if (kind === 'null')
            expect({ context, status, code: error.code, param: error.param }).toEqual({
              context,
              status: 400,
              code: 'PAR-002',
              param: paramOf(field),
            });
          else expect({ context, status }).toEqual({ context, status: 400 });
          checked += 1;
        }
      }
    }
    console.log(`hostile-input fields: ${checked} bodies with null or a wrong type, every one 400`);
  });

  it(`answers ${RUNS} random, mutated and hostile requests with 2xx or 4xx in the contract's shape, never 5xx nor a hang`, async () => {
    expect(routes.length).toBeGreaterThan(2);
    const before = await counts();
    const seeded = await stack.store.rows('api', CREDENTIALS);
    const logStart = { api: stack.api.text.length, simulator: stack.simulator?.text.length ?? 0 };
    const answers: Answer[] = [];
    const exactlyChecked = new Map<string, number>();
    const covered = new Set<string>();

    const request = fc.record({
      route: fc.constantFrom(...routes),
      pathParam: fc.oneof(
        { arbitrary: fc.constantFrom('SIM0000001', 'SIM0000002', 'SIM0000003', randomUUID()), weight: 4 },
        { arbitrary: hostileString.filter((s) => s.length < 300), weight: 1 },
      ),
      extraPath: fc.option(fc.constantFrom(...HOSTILE_PATH_ENDS), { nil: undefined, freq: 6 }),
      bodyKind: fc.constantFrom(...BODY_KINDS),
      pick: fc.nat(1000),
      size: fc.nat(1000),
      bodyOnGet: fc.boolean(),
      mutation: fc.record({ key: fc.string({ maxLength: 12 }), action: fc.nat(5), value: hostileValue }),
      json: fc.jsonValue({ maxDepth: 4 }),
      raw: fc.oneof(
        hostileString,
        fc.constantFrom('{', '{"a":', '[1,2', '{"amount":{"iva":1e999}}', 'null', '"str"'),
      ),
      auth: fc.constantFrom(
        'signed',
        'signed',
        'signed',
        'signed',
        'garbled',
        'stale',
        'none',
        'other-merchant',
      ),
      contentType: fc.constantFrom(
        'application/json',
        'application/json',
        'application/json; charset=utf-8',
        'text/plain',
        'application/json; charset=latin1',
        undefined,
      ),
      hostileHeaders: fc.oneof(
        { arbitrary: fc.constant(HOSTILE_HEADERS[0]), weight: 3 },
        { arbitrary: fc.constantFrom(...HOSTILE_HEADERS), weight: 1 },
      ),
    });

    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const name = `${r.route.method} ${r.route.template}`;
        const storing = CHANGE_WHAT_IS_STORED.includes(name);
        const path =
          r.route.template.replace(/\{[^}]+\}/g, () => encodeURIComponent(r.pathParam)) +
          (storing ? '' : (r.extraPath ?? ''));
        // A route that stores what it takes gets only bodies that every route refuses.
        const kind = storing ? ALWAYS_REFUSED[r.pick % ALWAYS_REFUSED.length] : r.bodyKind;
        let body: string | undefined;
        let payload: Payload | undefined;
        if (!['GET', 'DELETE'].includes(r.route.method) || r.bodyOnGet || storing) {
          if (kind === 'mutated')
            body = JSON.stringify(
              mutate(validBodyFor(r.route.template), r.mutation.key, r.mutation.action, r.mutation.value),
            );
          else if (kind === 'json') body = JSON.stringify(r.json);
          else if (kind === 'raw') body = r.raw;
          else if (kind !== 'none') {
            payload = hostilePayload(kind, validBodyFor(r.route.template), r.pick, r.size);
            body = payload.body;
          }
        }
        const contentType = storing ? 'application/json' : r.contentType;
        const credentials =
          r.auth === 'other-merchant'
            ? { merchantId: 'other-merchant', secret: 'other-secret-key' }
            : { merchantId: 'demo-merchant', secret: 'demo-secret-key' };
        const signed = signRequest({ ...credentials, method: r.route.method, path, body: body ?? '' });
        const headers: Array<[string, string]> = [];
        if (r.auth === 'garbled')
          headers.push(['authorization', 'Basic Z2FyYmxlZA=='], ['timestamp', signed.timestamp]);
        else if (r.auth === 'stale') {
          const old = signRequest({
            ...credentials,
            method: r.route.method,
            path,
            body: body ?? '',
            timestamp: 1,
          });
          headers.push(['authorization', old.authorization], ['timestamp', old.timestamp]);
        } else if (r.auth !== 'none')
          headers.push(['authorization', signed.authorization], ['timestamp', signed.timestamp]);
        if (body !== undefined && contentType !== undefined) headers.push(['content-type', contentType]);
        // Added, not replacing: a duplicated header is itself hostile.
        headers.push(...r.hostileHeaders.headers);

        const answer = await send(
          `${stack.apiUrl}${path}`,
          r.route.method,
          headers,
          body === undefined ? undefined : Buffer.from(body, 'utf8'),
        );
        const { status, text } = answer;
        answers.push({ route: `${r.route.method} ${path}`, status, text, ms: answer.ms });
        // A terminal the fuzz cut off answers later Cloud requests 503 TER-001, as the contract says:
        // the harness links it again at once, so that every later 5xx is a fault of the service.
        const serialCut = /^\/sandbox\/terminals\/([^/?]+)\/offline(?:\?|$)/.exec(path)?.[1];
        if (serialCut !== undefined && status === 200) {
          const online = await stack.client().as(credentials).post(`/sandbox/terminals/${serialCut}/online`);
          expect(online.status).toBe(200);
        }
        covered.add(`${name} ${kind}`);
        const context = `${r.route.method} ${path.slice(0, 200)} [${payload?.kind ?? kind}] ${body?.slice(0, 300) ?? ''}`;
        expect({ context, status: status < 500 }).toEqual({ context, status: true });
        if (text === '' && status === 200) return;
        // Whatever arrives, the answer is one the document declares for that route.
        expect(conformance.problem(r.route.method, path, status, text)).toBeUndefined();
        expect(text).not.toMatch(/at .*\.js:\d+|node_modules|TypeORM|SQLITE|QueryFailed/i);
        if (status >= 400) {
          const error = JSON.parse(text) as Record<string, unknown>;
          expect(
            Object.keys(error).every((k) => ['type', 'code', 'message', 'param', 'request_id'].includes(k)),
          ).toBe(true);
          expect(isErrorCode(error.code)).toBe(true);
          if (isErrorCode(error.code)) {
            expect(ERROR_CATALOGUE[error.code].status).toBe(status);
            expect(error.type).toBe(ERROR_CATALOGUE[error.code].type);
          }
          expect(typeof error.message).toBe('string');
        }
        // The body is read as JSON before routing and authentication (contract §4), so what it
        // must answer holds on every route, with any credentials.
        const readAsJson =
          body !== undefined &&
          body.length <= 1_000_000 &&
          ['application/json', 'application/json; charset=utf-8'].includes(contentType ?? '') &&
          r.hostileHeaders.body !== true &&
          !/%ZZ/.test(path);
        const expected = payload?.expect;
        // A hostile path or query may be refused on its own account, before the body's fields; and
        // a route that takes no body (a GET) reads no field of one, so only its query is judged.
        const plainTarget = r.extraPath === undefined && /^[A-Za-z0-9-]+$/.test(r.pathParam);
        const fieldsRead = plainTarget && r.route.takesBody;
        if (
          readAsJson &&
          expected !== undefined &&
          (expected.status !== undefined || (expected.ifRefused === true && status === 400 && fieldsRead))
        ) {
          const error = JSON.parse(text) as Record<string, unknown>;
          expect({ context, status, code: error.code, param: error.param }).toEqual({
            context,
            status: 400,
            code: expected.code,
            param: expected.param ?? error.param,
          });
          exactlyChecked.set(kind, (exactlyChecked.get(kind) ?? 0) + 1);
        }
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );

    const tally = { sent: answers.length, '2xx': 0, '4xx': 0, '5xx': 0 };
    for (const { status } of answers) tally[`${String(status)[0]}xx` as '2xx' | '4xx' | '5xx'] += 1;
    const slowest = answers.reduce((worst, a) => (a.ms > worst.ms ? a : worst), answers[0]);
    console.log(
      `hostile-input summary: seed ${SEED}, ${tally.sent} requests sent, ${tally['2xx']} 2xx, ${tally['4xx']} 4xx, ` +
        `${tally['5xx']} 5xx, slowest answer ${Math.round(slowest.ms)} ms (${slowest.route.slice(0, 120)}), ` +
        `exact answers checked: ${JSON.stringify(Object.fromEntries(exactlyChecked))}`,
    );
    expect(tally.sent).toBe(RUNS);
    expect(tally['5xx']).toBe(0);
    const byStatus = answers.reduce<Record<number, number>>(
      (count, a) => ({ ...count, [a.status]: (count[a.status] ?? 0) + 1 }),
      {},
    );
    // Most requests get past authentication and routing to the validation of their content.
    expect(byStatus[400]).toBeGreaterThan(RUNS / 5);
    expect(byStatus[200] + (byStatus[201] ?? 0) + (byStatus[202] ?? 0)).toBeGreaterThan(0);
    // Every operation of the document met at least one of the hostile bodies that are always refused.
    for (const route of routes) {
      const name = `${route.method} ${route.template}`;
      expect({ name, met: ALWAYS_REFUSED.some((kind) => covered.has(`${name} ${kind}`)) }).toEqual({
        name,
        met: true,
      });
    }
    for (const kind of ALWAYS_REFUSED)
      expect({ kind, checked: (exactlyChecked.get(kind) ?? 0) > 0 }).toEqual({ kind, checked: true });

    // A 4xx logs no stack trace (contract §4); none of these answers was a 5xx.
    expect(stack.api.text.slice(logStart.api)).not.toMatch(STACK_FRAME);
    expect(stack.simulator?.text.slice(logStart.simulator) ?? '').not.toMatch(STACK_FRAME);

    // Nothing already stored is lost or corrupted.
    await stack.waitQueueDrained(20_000);
    const after = await counts();
    expect(after.merchants).toBe(before.merchants);
    expect(after.terminals).toBeGreaterThanOrEqual(before.terminals);
    expect(after.transactions).toBeGreaterThanOrEqual(before.transactions);
    expect(await stack.store.rows('api', CREDENTIALS)).toEqual(seeded);
    // The files' own checks; PostgreSQL keeps its pages and keys consistent by itself.
    const files = store === 'sqlite' ? [stack.apiDatabase, join(stack.dir, 'terminal.sqlite')] : [];
    for (const file of files) {
      expect(await sqliteRows(file, 'PRAGMA integrity_check')).toEqual([{ integrity_check: 'ok' }]);
      expect(await sqliteRows(file, 'PRAGMA foreign_key_check')).toEqual([]);
    }
    const orphans = await stack.store.rows(
      'api',
      'SELECT t.id FROM transactions t LEFT JOIN transaction_events e ON e.transaction_id = t.id WHERE e.event_id IS NULL',
    );
    expect(orphans).toEqual([]);
  });
});
