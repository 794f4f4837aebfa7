import { PROTOTYPE_KEYS as RESERVED_KEYS } from '@tps/contracts';
import type { ErrorCode } from '@tps/domain';

/** Contract §4: objects and arrays nest at most this deep. */
export const MAX_JSON_DEPTH = 64;

/** Keys that name an object's prototype machinery: never a field of the contract. */
const PROTOTYPE_KEYS: ReadonlySet<string> = new Set(RESERVED_KEYS);

export interface JsonRefusal {
  code: Extract<ErrorCode, 'PAR-001' | 'PAR-002'>;
  message: string;
  param?: string;
}

interface Container {
  object: boolean;
  /** Keys seen so far (objects only), made on the second key: most objects here are small. */
  keys: Set<string> | undefined;
  /** The key or index whose value is being read. */
  at: string | number | undefined;
  expectKey: boolean;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

function hexDigit(byte: number): number {
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  const lower = byte | 0x20;
  if (lower >= 0x61 && lower <= 0x66) return lower - 0x61 + 10;
  return -1;
}

/** The code unit of the `\uXXXX` escape at `at` (the backslash), or -1 if it is not one. */
function escapedUnit(bytes: Buffer, at: number): number {
  if (bytes[at] !== BACKSLASH || bytes[at + 1] !== 0x75) return -1;
  let unit = 0;
  for (let i = at + 2; i < at + 6; i++) {
    const digit = hexDigit(bytes[i]);
    if (digit < 0) return -1;
    unit = unit * 16 + digit;
  }
  return unit;
}

function pathOf(containers: Container[], last?: string): string | undefined {
  let path = '';
  for (const container of containers) {
    if (container.at === undefined) break;
    path +=
      typeof container.at === 'number'
        ? `[${container.at}]`
        : path === ''
          ? container.at
          : `.${container.at}`;
  }
  if (last !== undefined) path += path === '' ? last : `.${last}`;
  return path === '' ? undefined : path;
}

/**
 * One pass over the raw bytes of a JSON body, before it is parsed, for what JSON.parse takes but
 * the contract refuses (§4): nesting deeper than MAX_JSON_DEPTH (a deep body overflows the stack
 * of whatever walks it next), a key given twice (JSON.parse keeps the last one silently),
 * prototype keys, a lone UTF-16 surrogate escape, a NUL escape, a number too large to be finite. Malformed JSON
 * is left to JSON.parse, which refuses it with its own answer.
 */
export function scanJson(bytes: Buffer): JsonRefusal | undefined {
  const containers: Container[] = [];
  const length = bytes.length;
  let nextBackslash = bytes.indexOf(BACKSLASH);
  let i = 0;
  while (i < length) {
    const byte = bytes[i];
    if (byte === 0x7b || byte === 0x5b) {
      if (containers.length >= MAX_JSON_DEPTH) {
        return { code: 'PAR-001', message: `request body is nested deeper than ${MAX_JSON_DEPTH} levels` };
      }
      const object = byte === 0x7b;
      containers.push({ object, keys: undefined, at: object ? undefined : 0, expectKey: object });
      i++;
    } else if (byte === 0x7d || byte === 0x5d) {
      containers.pop();
      i++;
    } else if (byte === 0x2c) {
      const top = containers[containers.length - 1];
      if (top?.object === true) top.expectKey = true;
      else if (top !== undefined) top.at = (top.at as number) + 1;
      i++;
    } else if (byte === QUOTE) {
      const start = i + 1;
      let end = bytes.indexOf(QUOTE, start);
      // An unterminated string is malformed JSON: JSON.parse says so.
      if (end < 0) return undefined;
      // Most strings hold no escape: they are skipped natively, without a loop over their bytes.
      if (nextBackslash >= 0 && nextBackslash < start) nextBackslash = bytes.indexOf(BACKSLASH, start);
      const escaped = nextBackslash >= 0 && nextBackslash < end;
      if (escaped) end = nextBackslash;
      for (; escaped && end < length && bytes[end] !== QUOTE; end++) {
        if (bytes[end] !== BACKSLASH) continue;
        const unit = escapedUnit(bytes, end);
        // PostgreSQL's text cannot hold U+0000: taken, it would be a 500 there and stored here.
        if (unit === 0) {
          return {
            code: 'PAR-002',
            message: 'a string holds a \\u0000 escape (U+0000, NUL), which no field takes',
            param: pathOf(containers),
          };
        }
        if (unit < 0xd800 || unit > 0xdfff) {
          end++;
          continue;
        }
        const low = unit <= 0xdbff ? escapedUnit(bytes, end + 6) : -1;
        if (low < 0xdc00 || low > 0xdfff) {
          return {
            code: 'PAR-002',
            message: 'a string holds a lone UTF-16 surrogate escape (\\ud800 to \\udfff without its pair)',
            param: pathOf(containers),
          };
        }
        end += 11;
      }
      if (end >= length) return undefined;
      i = end + 1;
      const top = containers[containers.length - 1];
      if (top?.object !== true || !top.expectKey) continue;
      const key = keyText(bytes, start, end, escaped);
      if (key === undefined) return undefined;
      top.expectKey = false;
      // The path up to this object, without the key read before this one.
      top.at = undefined;
      if (PROTOTYPE_KEYS.has(key))
        return {
          code: 'PAR-001',
          message: `unknown field ${pathOf(containers, key)}`,
          param: pathOf(containers, key),
        };
      if (top.keys === undefined) top.keys = new Set();
      if (top.keys.has(key)) {
        const param = pathOf(containers, key);
        return { code: 'PAR-001', message: `duplicate key ${param}: each key may appear once`, param };
      }
      top.keys.add(key);
      top.at = key;
    } else if (byte === 0x2d || (byte >= 0x30 && byte <= 0x39)) {
      const start = i;
      let exponent = false;
      while (i < length && isNumberByte(bytes[i])) {
        exponent ||= (bytes[i] | 0x20) === 0x65;
        i++;
      }
      // Without an exponent, up to 309 digits is a finite double.
      // NaN is a malformed number: JSON.parse says so.
      if (
        (exponent || i - start > 300) &&
        Math.abs(Number(bytes.toString('latin1', start, i))) === Infinity
      ) {
        return {
          code: 'PAR-002',
          message: 'a number is too large (beyond the range of a double)',
          param: pathOf(containers),
        };
      }
    } else i++;
  }
  return undefined;
}

function isNumberByte(byte: number): boolean {
  return (
    (byte >= 0x30 && byte <= 0x39) ||
    byte === 0x2e ||
    byte === 0x2d ||
    byte === 0x2b ||
    (byte | 0x20) === 0x65
  );
}

/** A key as JSON.parse will read it, or undefined when its escapes are malformed. */
function keyText(bytes: Buffer, start: number, end: number, escaped: boolean): string | undefined {
  if (!escaped) return bytes.toString('utf8', start, end);
  try {
    return JSON.parse(bytes.toString('utf8', start - 1, end + 1)) as string;
  } catch {
    return undefined;
  }
}
