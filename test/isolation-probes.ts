import { randomUUID } from 'node:crypto';
import type { Json } from './payment-helpers';

/**
 * What merchant B sends to every route of the API with merchant A's identifiers, and what it must
 * get back. Keyed by the route as /openapi.json names it, so that a route added to the API and
 * missing here fails the isolation suite instead of going untried.
 */
/** Merchant A's identifiers, as B could learn them (a shared log, a receipt, a guess). */
export interface Footprint {
  /** A's terminals. */
  serials: readonly string[];
  /** A's transaction_references: charges, an authorization, a refund. */
  references: readonly string[];
  /** A's authorization reference, what capture and re_authorization name. */
  authorization: string;
  /** An A client_transaction_id that B never takes as its own: the target of B's aborts. */
  target: string;
  /** A's request bodies that B sends again as its own (same client_transaction_id). */
  bodies: {
    syncCharge: Json;
    syncCloudCharge: Json;
    asyncCharge: Json;
    authorization: Json;
    asyncAuthorization: Json;
  };
  printJobId: string;
  deliveryIds: readonly string[];
}

export interface Probe {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  body?: Json;
  status: number;
  /** The error code of a 4xx answer. */
  code?: string;
  /** More checks of a 2xx answer. */
  check?: (body: any) => void;
  /** A server-sent event stream: read until its first message, the body being the messages. */
  stream?: true;
  /** The answer lists B's own earlier requests (its request log): they may name what B sent before. */
  echoesEarlierProbes?: true;
}

/** B's own terminal, bound to its credentials for the Local form. */
export const B_SERIAL = 'SIM0000003';

const AMOUNT = { iva: 1600, subtotal_iva: 10000, subtotal_iva0: 0 };
const notFound = (code: string) => ({ status: 404, code });
const empty = (body: any) => {
  if (!Array.isArray(body.items) || body.items.length > 0)
    throw new Error(`expected no item, got ${JSON.stringify(body)}`);
};
const onlyB = (body: any) => {
  for (const item of body.items as Json[]) {
    if (item.terminal_serial !== B_SERIAL) throw new Error(`search listed ${JSON.stringify(item)}`);
  }
};

type Mode = 'sync' | 'async';
const FOLLOW_UPS: ReadonlyArray<[string, readonly Mode[], (reference: string) => Json]> = [
  ['capture', ['sync', 'async'], (ref) => ({ transaction_reference: ref })],
  ['re_authorization', ['sync', 'async'], (ref) => ({ transaction_reference: ref, amount: AMOUNT })],
  ['pos_tip', ['sync', 'async'], (ref) => ({ transaction_reference: ref, tip: 100 })],
  ['void', ['sync', 'async'], (ref) => ({ transaction_reference: ref })],
  ['refund', ['sync'], (ref) => ({ transaction_reference: ref })],
];

const fresh = (fields: Json): Json => ({ client_transaction_id: randomUUID(), ...fields });
const cloud = (serial: string, rest: string) => `/terminal/v1/${serial}/${rest}`;

/** A's serials in a Cloud path: the terminal is unknown to B, whatever else the request names. */
function foreignSerials(a: Footprint, method: Probe['method'], rest: string, body?: Json): Probe[] {
  return a.serials.map((serial) => ({ method, path: cloud(serial, rest), body, ...notFound('NF-002') }));
}

function paymentRoutes(): Record<string, (a: Footprint) => Probe[]> {
  const routes: Record<string, (a: Footprint) => Probe[]> = {};
  // Idempotency keys are per merchant: A's very request, sent by B, is a new transaction of B's.
  const asOwn = (body: Json): Probe => ({ method: 'POST', path: '', body, status: 200 });
  const starts: Array<[string, (a: Footprint) => Json]> = [
    ['sync/charge', (a) => a.bodies.syncCharge],
    ['async/charge', (a) => a.bodies.asyncCharge],
    ['sync/authorization', (a) => a.bodies.syncCloudCharge],
    ['async/authorization', (a) => a.bodies.asyncAuthorization],
  ];
  for (const [rest, bodyOf] of starts) {
    routes[`POST /terminal/v1/${rest}`] = (a) => [{ ...asOwn(bodyOf(a)), path: `/terminal/v1/${rest}` }];
    routes[`POST /terminal/v1/{terminalSerial}/${rest}`] = (a) => foreignSerials(a, 'POST', rest, bodyOf(a));
  }
  routes['POST /authorization'] = (a) => [{ ...asOwn(a.bodies.authorization), path: '/authorization' }];
  for (const [type, modes, bodyOf] of FOLLOW_UPS) {
    for (const mode of modes) {
      const rest = `${mode}/${type}`;
      const refs = (a: Footprint) =>
        type === 'capture' || type === 're_authorization' ? [a.authorization, ...a.references] : a.references;
      routes[`POST /terminal/v1/${rest}`] = (a) =>
        refs(a).map((ref) => ({
          method: 'POST',
          path: `/terminal/v1/${rest}`,
          body: fresh(bodyOf(ref)),
          ...notFound('NF-001'),
        }));
      routes[`POST /terminal/v1/{terminalSerial}/${rest}`] = (a) => [
        ...foreignSerials(a, 'POST', rest, fresh(bodyOf(a.authorization))),
        ...refs(a).map((ref) => ({
          method: 'POST' as const,
          path: cloud(B_SERIAL, rest),
          body: fresh(bodyOf(ref)),
          ...notFound('NF-001'),
        })),
      ];
    }
  }
  return routes;
}

function searchRoutes(): Record<string, (a: Footprint) => Probe[]> {
  const filters = (a: Footprint): Json[] => [
    { client_transaction_id: a.target },
    ...a.references.map((ref) => ({ transaction_reference: ref })),
  ];
  const routes: Record<string, (a: Footprint) => Probe[]> = {};
  for (const where of ['online', 'local']) {
    const rest = `sync/transaction_search_${where}`;
    const walk = (path: string) => (a: Footprint) => [
      { method: 'POST' as const, path, body: { limit: 100 }, status: 200, check: onlyB },
      ...filters(a).map((body) => ({ method: 'POST' as const, path, body, status: 200, check: empty })),
      // Online search takes a terminal filter: naming A's terminal finds nothing.
      ...(where === 'online'
        ? a.serials.map((serial) => ({
            method: 'POST' as const,
            path,
            body: { terminal_serial: serial },
            status: 200,
            check: empty,
          }))
        : []),
    ];
    routes[`POST /terminal/v1/${rest}`] = walk(`/terminal/v1/${rest}`);
    routes[`POST /terminal/v1/{terminalSerial}/${rest}`] = (a) => [
      ...foreignSerials(a, 'POST', rest, {}),
      ...walk(cloud(B_SERIAL, rest))(a),
    ];
  }
  return routes;
}

function abortRoutes(): Record<string, (a: Footprint) => Probe[]> {
  // Contract: a target that is another merchant's is TRX-002, like an unknown one.
  const sync = (path: string) => (a: Footprint) => [
    {
      method: 'POST' as const,
      path,
      body: { target_client_transaction_id: a.target },
      status: 409,
      code: 'TRX-002',
    },
  ];
  // The async abort is B's own transaction; it ends TERMINAL_REJECTED on B's terminal.
  const async = (path: string) => (a: Footprint) => [
    { method: 'POST' as const, path, body: fresh({ target_client_transaction_id: a.target }), status: 200 },
  ];
  return {
    'POST /terminal/v1/sync/abort': sync('/terminal/v1/sync/abort'),
    'POST /terminal/v1/{terminalSerial}/sync/abort': (a) => [
      ...foreignSerials(a, 'POST', 'sync/abort', { target_client_transaction_id: a.target }),
      ...sync(cloud(B_SERIAL, 'sync/abort'))(a),
    ],
    'POST /terminal/v1/async/abort': async('/terminal/v1/async/abort'),
    'POST /terminal/v1/{terminalSerial}/async/abort': (a) => [
      ...foreignSerials(a, 'POST', 'async/abort', fresh({ target_client_transaction_id: a.target })),
      ...async(cloud(B_SERIAL, 'async/abort'))(a),
    ],
  };
}

function printRoutes(): Record<string, (a: Footprint) => Probe[]> {
  const receipt = (ref: string) => ({ transaction_reference: ref });
  const commands = { commands: [{ type: 'text', value: 'hello' }] };
  return {
    'POST /terminal/v1/print': (a) =>
      a.references.map((ref) => ({
        method: 'POST',
        path: '/terminal/v1/print',
        body: receipt(ref),
        ...notFound('NF-001'),
      })),
    'POST /terminal/v1/{terminalSerial}/print': (a) => [
      ...foreignSerials(a, 'POST', 'print', commands),
      ...a.references.map((ref) => ({
        method: 'POST' as const,
        path: cloud(B_SERIAL, 'print'),
        body: receipt(ref),
        ...notFound('NF-001'),
      })),
    ],
    'GET /terminal/v1/print/{printJobId}': (a) => [
      { method: 'GET', path: `/terminal/v1/print/${a.printJobId}`, ...notFound('NF-003') },
    ],
    'GET /terminal/v1/{terminalSerial}/print/{printJobId}': (a) => [
      ...foreignSerials(a, 'GET', `print/${a.printJobId}`),
      { method: 'GET', path: cloud(B_SERIAL, `print/${a.printJobId}`), ...notFound('NF-003') },
    ],
  };
}

function sandboxRoutes(): Record<string, (a: Footprint) => Probe[]> {
  const onSerial = (method: Probe['method'], rest: string, body?: Json) => (a: Footprint) =>
    a.serials.map((serial) => ({
      method,
      path: `/sandbox/terminals/${serial}${rest}`,
      body,
      ...notFound('NF-002'),
    }));
  return {
    // Contract §11: serials are unique across merchants, so a taken one is TER-004, never 403.
    'POST /sandbox/terminals': (a) =>
      a.serials.map((serial) => ({
        method: 'POST',
        path: '/sandbox/terminals',
        body: { serial },
        status: 409,
        code: 'TER-004',
      })),
    'GET /sandbox/terminals': () => [
      {
        method: 'GET',
        path: '/sandbox/terminals',
        status: 200,
        check: (body: Json[]) => {
          const serials = body.map((t) => t.serialNumber);
          if (JSON.stringify(serials) !== JSON.stringify([B_SERIAL]))
            throw new Error(`B's fleet lists ${serials.join(', ')}`);
        },
      },
    ],
    'GET /sandbox/requests': (a) => [
      {
        method: 'GET',
        path: '/sandbox/requests',
        status: 200,
        echoesEarlierProbes: true,
        // B's own probes name A's terminals and are refused; an answered one would be A's request.
        check: (body: Json[]) => {
          const leaked = body.filter(
            (entry) => entry.status < 400 && a.serials.some((serial) => String(entry.path).includes(serial)),
          );
          if (leaked.length > 0) throw new Error(`B's request log lists ${JSON.stringify(leaked)}`);
        },
      },
    ],
    'PATCH /sandbox/terminals/{serial}': onSerial('PATCH', '', { pace: 'realistic', printer: 'paper_out' }),
    'POST /sandbox/terminals/{serial}/card': onSerial('POST', '/card', { action: 'cancel' }),
    'POST /sandbox/terminals/{serial}/offline': onSerial('POST', '/offline'),
    'POST /sandbox/terminals/{serial}/online': onSerial('POST', '/online'),
    // The clock and the webhook secret are B's own; the snapshot shows A's did not move.
    'GET /sandbox/clock': () => [{ method: 'GET', path: '/sandbox/clock', status: 200 }],
    // B's own stream opens; that it never carries A's activity is test/live-events.e2e-spec.ts.
    'GET /sandbox/events': () => [
      {
        method: 'GET',
        path: '/sandbox/events',
        stream: true,
        status: 200,
        check: (messages: Json[]) => {
          if (messages[0]?.type !== 'hello')
            throw new Error(`B's stream opened with ${JSON.stringify(messages)}`);
        },
      },
    ],
    'POST /sandbox/clock': () => [
      { method: 'POST', path: '/sandbox/clock', body: { advance_seconds: 3600 }, status: 200 },
    ],
    'POST /sandbox/webhook-secret': () => [{ method: 'POST', path: '/sandbox/webhook-secret', status: 200 }],
    'POST /sandbox/webhook-secret/rotate': () => [
      { method: 'POST', path: '/sandbox/webhook-secret/rotate', body: { overlap_seconds: 60 }, status: 200 },
    ],
    'DELETE /sandbox/webhook-secret': () => [
      { method: 'DELETE', path: '/sandbox/webhook-secret', status: 204 },
    ],
    // Contract §11: a transaction of another merchant lists as empty.
    'GET /sandbox/deliveries': (a) => [
      {
        method: 'GET',
        path: `/sandbox/deliveries?client_transaction_id=${a.target}`,
        status: 200,
        check: empty,
      },
    ],
    // B's own runs: none; a run id of A's is as unknown as one that never was (webhook-conformance e2e).
    'GET /sandbox/conformance-runs': () => [
      { method: 'GET', path: '/sandbox/conformance-runs', status: 200, check: empty },
    ],
    'GET /sandbox/conformance-runs/{id}': () => [
      { method: 'GET', path: `/sandbox/conformance-runs/${randomUUID()}`, ...notFound('NF-005') },
    ],
    'GET /sandbox/conformance-runs/{id}/junit': () => [
      { method: 'GET', path: `/sandbox/conformance-runs/${randomUUID()}/junit`, ...notFound('NF-005') },
    ],
    // Refused before anything is sent or made: a started run would add a terminal to B's fleet.
    'POST /sandbox/conformance-runs': () => [
      {
        method: 'POST',
        path: '/sandbox/conformance-runs',
        body: { url: 'not a url' },
        status: 400,
        code: 'PAR-004',
      },
    ],
    'POST /sandbox/deliveries/{id}/redeliver': (a) =>
      a.deliveryIds.map((id) => ({
        method: 'POST',
        path: `/sandbox/deliveries/${id}/redeliver`,
        ...notFound('NF-004'),
      })),
  };
}

/** Contract §14: B's account routes act on B alone; the snapshot shows A's data untouched. */
function accountRoutes(): Record<string, (a: Footprint) => Probe[]> {
  return {
    'GET /ready': () => [
      {
        method: 'GET',
        path: '/ready',
        status: 200,
        check: (body: Json) => {
          if (body.ready !== true) throw new Error(`not ready: ${JSON.stringify(body)}`);
        },
      },
    ],
    // Unsigned: a fresh account of its own, with nothing of A's in it.
    'POST /sandbox/accounts': () => [
      {
        method: 'POST',
        path: '/sandbox/accounts',
        body: { terminals: 1 },
        status: 201,
        check: (body: Json) => {
          if (body.terminals.length !== 1) throw new Error(`asked for 1 terminal: ${JSON.stringify(body)}`);
        },
      },
    ],
    'POST /sandbox/reset': () => [
      { method: 'POST', path: '/sandbox/reset', status: 200, check: (body: Json) => expectReset(body) },
    ],
    // B is a shared demo merchant: it cannot be deleted (and A, the other one, is not touched).
    'DELETE /sandbox/accounts/me': () => [
      { method: 'DELETE', path: '/sandbox/accounts/me', status: 409, code: 'TRX-006' },
    ],
  };
}

function expectReset(body: Json): void {
  if (body.reset !== true || body.clock?.offset_seconds !== 0)
    throw new Error(`reset answered ${JSON.stringify(body)}`);
}

/** Every route of the API and what B meets there with A's identifiers. */
export const ISOLATION_PROBES: Readonly<Record<string, (a: Footprint) => Probe[]>> = {
  // Public and merchant-free: they must simply not list anything of A's.
  'GET /': () => [{ method: 'GET', path: '/', status: 200 }],
  'GET /health': () => [{ method: 'GET', path: '/health', status: 200 }],
  ...paymentRoutes(),
  ...searchRoutes(),
  ...abortRoutes(),
  ...printRoutes(),
  ...sandboxRoutes(),
  ...accountRoutes(),
};
