import { createHmac, timingSafeEqual } from 'node:crypto';
import type { components } from './generated/openapi';

/** A payment event, as sent to `events_webhook_url`. */
export type PaymentEvent = components['schemas']['TransactionEventDoc'];
/** A print job's callback, as sent to its `webhookUrl`. */
export type PrintCallback = components['schemas']['PrintWebhookPayloadDoc'];

/** How far `webhook-timestamp` may be from this machine's clock, as Standard Webhooks advises. */
const TOLERANCE_SECONDS = 5 * 60;
const SECRET_PREFIX = 'whsec_';

export class WebhookVerificationError extends Error {
  override name = 'WebhookVerificationError';
}

type HeaderName = 'webhook-id' | 'webhook-timestamp' | 'webhook-signature';

/** The headers of a delivery, as Node's `IncomingMessage.headers` or a fetch `Headers` give them. */
export type WebhookHeaders = Headers | { readonly [name in HeaderName]?: string | string[] };

function header(headers: WebhookHeaders, name: HeaderName): string {
  const value = headers instanceof Headers ? headers.get(name) : headers[name];
  const single = Array.isArray(value) ? value[0] : value;
  if (single === undefined || single === null || single === '')
    throw new WebhookVerificationError(`missing ${name} header`);
  return single;
}

/**
 * Verifies one delivery of the merchant's webhooks, payment events and print callbacks alike
 * (Standard Webhooks, contract §6 and §12), over the raw body bytes, before parsing: `webhook-id`
 * (the `event_id`, or the `printJobId`), `webhook-timestamp` within five minutes of this
 * machine's clock, and a `v1,` signature in `webhook-signature` (two while the merchant's secret
 * rotates) that is the base64 HMAC-SHA256 of `id.timestamp.body`, keyed by the base64-decoded
 * part of the `whsec_` secret. Returns the parsed body; throws WebhookVerificationError.
 */
export function verifyWebhook<Body = PaymentEvent | PrintCallback>(
  secret: string,
  rawBody: string | Uint8Array,
  headers: WebhookHeaders,
  now: Date = new Date(),
): Body {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  const seconds = Number(timestamp);
  if (!/^\d+$/.test(timestamp) || Math.abs(now.getTime() / 1000 - seconds) > TOLERANCE_SECONDS)
    throw new WebhookVerificationError('webhook-timestamp is too old or too new');
  const key = Buffer.from(
    secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret,
    'base64',
  );
  const body = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : Buffer.from(rawBody);
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest();
  const matches = signatures.split(' ').some((versioned) => {
    const [version, signature] = versioned.split(',', 2);
    if (version !== 'v1' || signature === undefined) return false;
    const given = Buffer.from(signature, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches) throw new WebhookVerificationError('no webhook-signature matches');
  return JSON.parse(body.toString('utf8')) as Body;
}
