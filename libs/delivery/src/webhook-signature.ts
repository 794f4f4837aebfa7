import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Standard Webhooks signing (beyond the specification, contract §6): `webhook-id`,
 * `webhook-timestamp` (Unix seconds) and `webhook-signature` = `v1,` + base64 HMAC-SHA256 of
 * `id.timestamp.body`, keyed by the base64-decoded part of the secret after `whsec_`. While a
 * rotated secret overlaps the new one, each secret signs: the signatures are space-separated, and
 * a receiver that knows either one verifies the message.
 */
export const SECRET_PREFIX = 'whsec_';
const SECRET_BYTES = 32;

export interface SignatureHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/** A new signing secret: `whsec_` + base64 of 32 random bytes. */
export function newWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

function secretKey(secret: string): Buffer {
  if (!secret.startsWith(SECRET_PREFIX)) throw new Error('a webhook secret starts with whsec_');
  return Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
}

function signature(secret: string, id: string, timestamp: string, body: string): string {
  return createHmac('sha256', secretKey(secret)).update(`${id}.${timestamp}.${body}`).digest('base64');
}

export function signWebhook(
  secrets: string | readonly string[],
  id: string,
  timestampSeconds: number,
  body: string,
): SignatureHeaders {
  const timestamp = String(timestampSeconds);
  const each = typeof secrets === 'string' ? [secrets] : secrets;
  return {
    'webhook-id': id,
    'webhook-timestamp': timestamp,
    'webhook-signature': each.map((secret) => `v1,${signature(secret, id, timestamp, body)}`).join(' '),
  };
}

/**
 * What a consumer does with a delivery: true when one of the space-separated `v1` signatures
 * matches and the timestamp is within `toleranceSeconds` of `nowSeconds` (a replay guard).
 */
export function verifyWebhook(
  secret: string,
  headers: Partial<Record<keyof SignatureHeaders, string>>,
  body: string,
  nowSeconds: number,
  toleranceSeconds = 300,
): boolean {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (id === undefined || timestamp === undefined || signatures === undefined) return false;
  if (!/^\d+$/.test(timestamp) || Math.abs(nowSeconds - Number(timestamp)) > toleranceSeconds) return false;
  const expected = Buffer.from(signature(secret, id, timestamp, body));
  return signatures.split(' ').some((candidate) => {
    const [version, value] = candidate.split(',', 2);
    const given = Buffer.from(value ?? '');
    return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
  });
}
