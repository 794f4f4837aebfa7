/**
 * Fields whose values never reach a log line, wherever a log call puts them (top level or one
 * object down): secrets, signatures, the Authorization header and card numbers.
 */
const SENSITIVE_KEYS = new Set([
  'secret',
  'secret_key',
  'secretKey',
  'webhook_secret',
  'webhookSecret',
  'authorization',
  'signature',
  'webhook-signature',
  'pan',
  'password',
  'token',
]);

export const REDACTED = '[redacted]';

type Fields = Record<string, unknown>;

const own = (fields: object, key: string): boolean => Object.prototype.hasOwnProperty.call(fields, key);

/** `fields` with its sensitive keys censored; the same object when it has none. */
function censoredKeys(fields: Fields): Fields {
  let copy: Fields | undefined;
  for (const key in fields) {
    if (own(fields, key) && SENSITIVE_KEYS.has(key) && fields[key] !== undefined) {
      copy ??= { ...fields };
      copy[key] = REDACTED;
    }
  }
  return copy ?? fields;
}

/**
 * A log line's fields with every sensitive key censored, at the top level and one object down.
 * A plain loop rather than pino's path-based redaction, which cost about 20 µs a line (two
 * lines per charge); nothing is copied unless something is censored.
 */
export function redactSensitive(fields: Fields): Fields {
  const top = censoredKeys(fields);
  let result = top;
  for (const key in top) {
    const value = top[key];
    if (!own(top, key) || typeof value !== 'object' || value === null || Array.isArray(value)) continue;
    const inner = censoredKeys(value as Fields);
    if (inner === value) continue;
    if (result === fields) result = { ...fields };
    result[key] = inner;
  }
  return result;
}
