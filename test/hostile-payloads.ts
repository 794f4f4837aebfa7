/**
 * Hostile bodies built from a valid one, each with what the contract (§4) says it must answer
 * once the body is read as JSON: the fuzzer of hostile-input.e2e-spec.ts sends them to every
 * route of the OpenAPI document.
 */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };
export type Path = Array<string | number>;

/** What the answer must be when the body is parsed; `ifRefused` holds only for a 400. */
export interface Expectation {
  status?: 400;
  code?: 'PAR-001' | 'PAR-002';
  /** Whether a 400 must name this field. */
  param?: string;
  ifRefused?: boolean;
}

export interface Payload {
  kind: string;
  body: string;
  expect: Expectation;
}

/** Bodies that every route refuses, whatever its fields: safe on routes that store what they take. */
export const ALWAYS_REFUSED = ['deep', 'duplicate', 'surrogate', 'prototype', 'infinite', 'null'];

/** Contract §4: nesting up to 64 is read. */
export const DEPTHS = [65, 100, 1000, 5000, 20_000];

const SLOT = '\u0001hostile-slot\u0001';

/** A field path as the service names it in `param`: `amount.iva`, `commands[1].type`. */
export function paramOf(path: Path): string {
  return path.reduce<string>(
    (text, step) => (typeof step === 'number' ? `${text}[${step}]` : text === '' ? step : `${text}.${step}`),
    '',
  );
}

function objectsAndLeaves(value: Json, path: Path = []): { objects: Path[]; leaves: Path[] } {
  const found = { objects: [] as Path[], leaves: [] as Path[] };
  if (typeof value !== 'object' || value === null) {
    found.leaves.push(path);
    return found;
  }
  if (!Array.isArray(value)) found.objects.push(path);
  const entries: Array<[string | number, Json]> = Array.isArray(value)
    ? value.map((item, index) => [index, item])
    : Object.entries(value);
  if (path.length > 0 && entries.length === 0) found.leaves.push(path);
  for (const [step, item] of entries) {
    const inner = objectsAndLeaves(item, [...path, step]);
    found.objects.push(...inner.objects);
    found.leaves.push(...inner.leaves);
  }
  return found;
}

export function valueAt(body: Json, path: Path): Json {
  return path.reduce<Json>((node, step) => (node as Record<string | number, Json>)[step], body);
}

/** Every field of a body, nested ones and their containers included: `amount`, `amount.iva`. */
export function fieldPaths(body: JsonObject): Path[] {
  const paths: Path[] = [];
  const visit = (value: Json, path: Path): void => {
    if (path.length > 0) paths.push(path);
    if (typeof value !== 'object' || value === null) return;
    if (Array.isArray(value)) value.forEach((item, index) => visit(item, [...path, index]));
    else for (const [key, item] of Object.entries(value)) visit(item, [...path, key]);
  };
  visit(body, []);
  return paths;
}

/** The body as JSON text with `raw` (any text, valid JSON or not) in place of the value at `path`. */
export function withRawAt(body: JsonObject, path: Path, raw: string): string {
  if (path.length === 0) return raw;
  const copy = JSON.parse(JSON.stringify(body)) as JsonObject;
  const parent = valueAt(copy, path.slice(0, -1)) as Record<string | number, Json>;
  parent[path[path.length - 1]] = SLOT;
  return JSON.stringify(copy).replace(JSON.stringify(SLOT), () => raw);
}

/** The body as JSON text with `"key":raw` added to the object at `path` (a key it may have). */
function withMemberAt(body: JsonObject, path: Path, key: string, raw: string): string {
  const copy = JSON.parse(JSON.stringify(body)) as JsonObject;
  (valueAt(copy, path) as JsonObject)[SLOT] = SLOT;
  return JSON.stringify(copy).replace(
    `${JSON.stringify(SLOT)}:${JSON.stringify(SLOT)}`,
    () => `${JSON.stringify(key)}:${raw}`,
  );
}

function nested(depth: number, shape: number): string {
  const [open, close] = [
    ['{"a":', '}'],
    ['[', ']'],
    ['[{"a":', '}]'],
  ][shape % 3];
  const levels = shape % 3 === 2 ? Math.ceil(depth / 2) : depth;
  return open.repeat(levels) + '1' + close.repeat(levels);
}

/** A value of another JSON type than `value`. */
export function wrongTypeFor(value: Json, pick: number): Json {
  const others: Json[] =
    typeof value === 'number'
      ? ['16', true, [], {}, [1]]
      : typeof value === 'string'
        ? [1, false, [], {}, ['x']]
        : typeof value === 'boolean'
          ? ['true', 1, [], {}]
          : Array.isArray(value)
            ? [{}, 'x', 1, true]
            : ['x', 1, [], true, [{}]];
  return others[pick % others.length];
}

const LONE_SURROGATES = ['"\\ud800"', '"a\\udfffb"', '"\\ud83d"', '"\\ud83dx"', '"\\udc00\\ud800"'];
const INFINITE_NUMBERS = ['1e309', '-1e400', '9'.repeat(400), `-${'1'.repeat(330)}`, '1.5E99999'];
const FINITE_HUGE_NUMBERS = ['1e300', '9'.repeat(300), '-1.7976931348623157e308', '4.9e-324', '1e-400'];
const PROTOTYPE_MEMBERS: Array<[string, string]> = [
  ['__proto__', '{"polluted":true}'],
  ['constructor', '{"prototype":{"polluted":true}}'],
  ['prototype', '{"polluted":true}'],
  ['__proto__', 'null'],
];

/**
 * One hostile body made from `valid`. `pick` and `size` choose among the variants of `kind`, so
 * that fast-check can shrink them.
 */
export function hostilePayload(kind: string, valid: JsonObject, pick: number, size: number): Payload {
  const { objects, leaves } = objectsAndLeaves(valid);
  const leaf = leaves.length > 0 ? leaves[pick % leaves.length] : ['extra'];
  const object = objects[pick % objects.length];
  switch (kind) {
    case 'deep': {
      const depth = DEPTHS[size % DEPTHS.length];
      const path = pick % 4 === 0 ? [] : leaf;
      return {
        kind: `deep ${depth}`,
        body: withRawAt(valid, path, nested(depth, pick)),
        expect: { status: 400, code: 'PAR-001' },
      };
    }
    case 'null':
      return {
        kind,
        body: withRawAt(valid, leaf, 'null'),
        expect: { ifRefused: true, code: 'PAR-002', param: paramOf(leaf) },
      };
    case 'wrong-type':
      return {
        kind,
        body: withRawAt(valid, leaf, JSON.stringify(wrongTypeFor(valueAt(valid, leaf), size))),
        expect: {},
      };
    case 'duplicate': {
      const keys = Object.keys(valueAt(valid, object) as JsonObject);
      const key = keys.length > 0 ? keys[size % keys.length] : 'a';
      const body =
        keys.length > 0
          ? withMemberAt(valid, object, key, JSON.stringify(valueAt(valid, [...object, key])))
          : withMemberAt(valid, object, key, `1,${JSON.stringify(key)}:2`);
      return { kind, body, expect: { status: 400, code: 'PAR-001', param: paramOf([...object, key]) } };
    }
    case 'surrogate': {
      const raw = LONE_SURROGATES[size % LONE_SURROGATES.length];
      return {
        kind,
        body: withRawAt(valid, leaf, raw),
        expect: { status: 400, code: 'PAR-002', param: paramOf(leaf) },
      };
    }
    case 'prototype': {
      const [key, raw] = PROTOTYPE_MEMBERS[size % PROTOTYPE_MEMBERS.length];
      return {
        kind: `prototype ${key}`,
        body: withMemberAt(valid, object, key, raw),
        expect: { status: 400, code: 'PAR-001', param: paramOf([...object, key]) },
      };
    }
    case 'infinite': {
      const raw = INFINITE_NUMBERS[size % INFINITE_NUMBERS.length];
      return {
        kind,
        body: withRawAt(valid, leaf, raw),
        expect: { status: 400, code: 'PAR-002', param: paramOf(leaf) },
      };
    }
    case 'huge-number':
      return {
        kind,
        body: withRawAt(valid, leaf, FINITE_HUGE_NUMBERS[size % FINITE_HUGE_NUMBERS.length]),
        expect: {},
      };
    case 'huge-string': {
      // Up to just under the 1 MiB limit, and once over it (413 PAR-005).
      const length = [300, 5_000, 100_000, 1_000_000, 1_100_000][size % 5];
      return {
        kind: `string of ${length}`,
        body: withRawAt(valid, leaf, JSON.stringify('x'.repeat(length))),
        expect: {},
      };
    }
    case 'non-json': {
      const raw = [
        'hello',
        '<xml/>',
        'a=1&b=2',
        '{"a":1}}',
        "{'a':1}",
        '\u0000',
        'NaN',
        '{"a":NaN}',
        '\ufeff{}',
      ];
      return { kind, body: raw[size % raw.length], expect: {} };
    }
    default:
      return { kind: 'empty', body: '', expect: {} };
  }
}
