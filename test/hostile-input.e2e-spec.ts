import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import fc from 'fast-check';
import { signRequest } from '@tps/contracts';
import { ERROR_CATALOGUE, isErrorCode } from '@tps/domain';
import { OpenApiConformance, sqliteRows, Stack } from '@tps/testing';

/**
 * Fuzzing every route the OpenAPI document lists (so a route added later is covered without
 * touching this file) with random and mutated bodies, headers and paths.
 */
const RUNS = 1200;
// Credentials and bindings must survive; the webhook secret and the sandbox clock are settings
// that the fuzzer may change legitimately through their own routes.
const CREDENTIALS =
  'SELECT merchant_id, secret_key, bound_terminal_serial FROM merchants ORDER BY merchant_id';

interface Route {
  method: string;
  template: string;
}

interface Answer {
  route: string;
  status: number;
  text: string;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const amount = () => ({
  iva: 1600,
  subtotal_iva: 10000,
  subtotal_iva0: 0,
  extra_taxes: { airport_tax: 0, iac: 0, ice: 0, travel_agency: 0 },
});

/** A plausible body for the route, for mutation: the fuzzer starts near what the service accepts. */
/**
 * Contract §14: a reset erases the caller's transactions and account creation adds merchants, by
 * design, so "nothing stored is lost" below cannot hold for them; sandbox-accounts.e2e-spec.ts
 * sends them hostile input instead.
 */
const CHANGE_WHAT_IS_STORED = ['POST /sandbox/reset', 'POST /sandbox/accounts'];

function validBodyFor(template: string): { [key: string]: Json } {
  const id = randomUUID();
  if (template.endsWith('/print'))
    return {
      commands: [{ type: 'text', value: 'hello', align: 'center' }, { type: 'cut' }],
      externalReference: 'x',
    };
  if (template.includes('/sandbox/clock')) return { advance_seconds: 60 };
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
  ),
  fc.string({ minLength: 2000, maxLength: 5000 }),
);
const hostileValue: fc.Arbitrary<Json> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<Json>,
  hostileString,
  fc.constantFrom<Json>(-1, 0, 1.5, 2 ** 53, -(2 ** 31), 1e308, [], {}, null, true, '16'),
);

function mutate(
  body: { [key: string]: Json },
  key: string,
  action: number,
  value: Json,
): { [key: string]: Json } {
  const copy = JSON.parse(JSON.stringify(body)) as { [key: string]: Json };
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

describe('hostile input on every route', () => {
  let stack: Stack;
  let routes: Route[];
  let conformance: OpenApiConformance;

  beforeAll(async () => {
    stack = await Stack.start();
    const document = (await (await fetch(`${stack.apiUrl}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    conformance = await OpenApiConformance.load(stack.apiUrl);
    routes = Object.entries(document.paths)
      .flatMap(([template, operations]) =>
        Object.keys(operations).map((method) => ({ method: method.toUpperCase(), template })),
      )
      .filter((route) => !CHANGE_WHAT_IS_STORED.includes(`${route.method} ${route.template}`));
  });

  afterAll(async () => {
    await stack?.stop();
  });

  async function counts(): Promise<Record<string, number>> {
    const result: Record<string, number> = {};
    for (const table of ['merchants', 'terminals', 'transactions', 'transaction_events']) {
      const [row] = await sqliteRows<{ n: number }>(stack.apiDatabase, `SELECT COUNT(*) AS n FROM ${table}`);
      result[table] = row.n;
    }
    return result;
  }

  it(`answers ${RUNS} random and mutated requests with 2xx or 4xx in the contract's shape, never 5xx`, async () => {
    expect(routes.length).toBeGreaterThan(2);
    const before = await counts();
    const seeded = await sqliteRows(stack.apiDatabase, CREDENTIALS);
    const answers: Answer[] = [];

    const request = fc.record({
      route: fc.constantFrom(...routes),
      pathParam: fc.oneof(
        { arbitrary: fc.constantFrom('SIM0000001', 'SIM0000002', 'SIM0000003', randomUUID()), weight: 4 },
        { arbitrary: hostileString.filter((s) => s.length < 300), weight: 1 },
      ),
      extraPath: fc.option(fc.constantFrom('/x', '/../sandbox', '//', '?q=1', '%2e%2e', '/%ZZ'), {
        nil: undefined,
        freq: 6,
      }),
      bodyKind: fc.constantFrom('mutated', 'mutated', 'mutated', 'json', 'raw', 'none'),
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
        'text/plain',
        'application/json; charset=latin1',
        undefined,
      ),
    });

    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const path =
          r.route.template.replace(/\{[^}]+\}/g, () => encodeURIComponent(r.pathParam)) + (r.extraPath ?? '');
        let body: string | undefined;
        if (r.route.method !== 'GET' && r.route.method !== 'DELETE') {
          if (r.bodyKind === 'mutated')
            body = JSON.stringify(
              mutate(validBodyFor(r.route.template), r.mutation.key, r.mutation.action, r.mutation.value),
            );
          else if (r.bodyKind === 'json') body = JSON.stringify(r.json);
          else if (r.bodyKind === 'raw') body = r.raw;
        }
        const credentials =
          r.auth === 'other-merchant'
            ? { merchantId: 'other-merchant', secret: 'other-secret-key' }
            : { merchantId: 'demo-merchant', secret: 'demo-secret-key' };
        const signed = signRequest({ ...credentials, method: r.route.method, path, body: body ?? '' });
        const headers: Record<string, string> = {};
        if (r.auth === 'garbled')
          Object.assign(headers, { authorization: 'Basic Z2FyYmxlZA==', timestamp: signed.timestamp });
        else if (r.auth === 'stale') {
          Object.assign(
            headers,
            signRequest({ ...credentials, method: r.route.method, path, body: body ?? '', timestamp: 1 }),
          );
        } else if (r.auth !== 'none') Object.assign(headers, signed);
        if (body !== undefined && r.contentType !== undefined) headers['content-type'] = r.contentType;

        let status: number;
        let text: string;
        try {
          const response = await fetch(`${stack.apiUrl}${path}`, {
            method: r.route.method,
            headers,
            body,
            // A valid sync request may wait on the terminal; it is not an error, only slow.
            signal: AbortSignal.timeout(5000),
          });
          status = response.status;
          // A live stream (GET /sandbox/events) never ends: its status and headers are the answer.
          if (response.headers.get('content-type')?.startsWith('text/event-stream') === true) {
            await response.body?.cancel();
            answers.push({ route: `${r.route.method} ${path}`, status, text: '' });
            expect(status).toBe(200);
            return;
          }
          text = await response.text();
        } catch (error) {
          if (error instanceof Error && error.name === 'TimeoutError') return;
          throw error;
        }
        answers.push({ route: `${r.route.method} ${path}`, status, text });
        expect(status).toBeLessThan(500);
        // Whatever arrives, the answer is one the document declares for that route.
        expect(conformance.problem(r.route.method, path, status, text)).toBeUndefined();
        expect(text).not.toMatch(/at .*\.js:\d+|node_modules|TypeORM|SQLITE|QueryFailed/i);
        if (status >= 400) {
          const error = JSON.parse(text) as Record<string, unknown>;
          expect(Object.keys(error).every((k) => ['type', 'code', 'message', 'param'].includes(k))).toBe(
            true,
          );
          expect(isErrorCode(error.code)).toBe(true);
          if (isErrorCode(error.code)) {
            expect(ERROR_CATALOGUE[error.code].status).toBe(status);
            expect(error.type).toBe(ERROR_CATALOGUE[error.code].type);
          }
          expect(typeof error.message).toBe('string');
        }
      }),
      { numRuns: RUNS, seed: 20261123, endOnFailure: true },
    );

    const byStatus = answers.reduce<Record<number, number>>(
      (tally, a) => ({ ...tally, [a.status]: (tally[a.status] ?? 0) + 1 }),
      {},
    );
    expect(answers.length).toBeGreaterThan(RUNS / 2);
    // Most requests get past authentication and routing to the validation of their content.
    expect(byStatus[400]).toBeGreaterThan(RUNS / 5);
    expect(byStatus[200] + (byStatus[201] ?? 0) + (byStatus[202] ?? 0)).toBeGreaterThan(0);

    // Nothing already stored is lost or corrupted.
    await stack.waitQueueDrained(20_000);
    const after = await counts();
    expect(after.merchants).toBe(before.merchants);
    expect(after.terminals).toBeGreaterThanOrEqual(before.terminals);
    expect(after.transactions).toBeGreaterThanOrEqual(before.transactions);
    expect(await sqliteRows(stack.apiDatabase, CREDENTIALS)).toEqual(seeded);
    for (const file of [stack.apiDatabase, join(stack.dir, 'terminal.sqlite')]) {
      expect(await sqliteRows(file, 'PRAGMA integrity_check')).toEqual([{ integrity_check: 'ok' }]);
      expect(await sqliteRows(file, 'PRAGMA foreign_key_check')).toEqual([]);
    }
    const orphans = await sqliteRows(
      stack.apiDatabase,
      'SELECT t.id FROM transactions t LEFT JOIN transaction_events e ON e.transaction_id = t.id WHERE e.event_id IS NULL',
    );
    expect(orphans).toEqual([]);
  });
});
