import { registerDecorator, type ValidationOptions } from 'class-validator';
import {
  MAX_METADATA_KEYS,
  MAX_METADATA_KEY_LENGTH,
  MAX_METADATA_VALUE_LENGTH,
  MAX_URL_LENGTH,
  PROTOTYPE_KEYS,
  URI_CHARACTERS,
  WEBHOOK_URL_PATTERN,
} from './limits';

/** Names of the constraints whose failure maps to a specific contract code. */
export const WEBHOOK_URL_CONSTRAINT = 'isWebhookUrl';

/** How the document states a webhook URL: what `isWebhookUrl` takes. */
export const WEBHOOK_URL_SCHEMA = {
  type: 'string',
  format: 'uri',
  maxLength: MAX_URL_LENGTH,
  pattern: WEBHOOK_URL_PATTERN,
  // A sampler's default would be an outside host; a sandbox delivers to its own machine.
  example: 'http://127.0.0.1:4000/webhooks/payments',
} as const;

export function isWebhookUrl(value: unknown): boolean {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_URL_LENGTH) return false;
  // A URI as the document's `format: uri` says (RFC 3986), not whatever a WHATWG parser repairs.
  if (!URI_CHARACTERS.test(value) || !new RegExp(WEBHOOK_URL_PATTERN).test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}

/** An absolute http(s) URL; the production profile further demands https (contract §5). */
export function IsWebhookUrl(options?: ValidationOptions): PropertyDecorator {
  return (object, propertyName) => {
    registerDecorator({
      name: WEBHOOK_URL_CONSTRAINT,
      target: object.constructor,
      propertyName: String(propertyName),
      options: {
        message: `${String(propertyName)} must be an absolute http or https URL of at most ${MAX_URL_LENGTH} characters`,
        ...options,
      },
      validator: { validate: isWebhookUrl },
    });
  };
}

/**
 * How the document states metadata: what `isFlatStringMap` takes, and the keys the body scan
 * refuses in any object before validation.
 */
export const METADATA_SCHEMA = {
  type: 'object',
  maxProperties: MAX_METADATA_KEYS,
  propertyNames: { minLength: 1, maxLength: MAX_METADATA_KEY_LENGTH, not: { enum: [...PROTOTYPE_KEYS] } },
  additionalProperties: { type: 'string', maxLength: MAX_METADATA_VALUE_LENGTH },
} as const;

export function isFlatStringMap(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const entries = Object.entries(value);
  return (
    entries.length <= MAX_METADATA_KEYS &&
    entries.every(
      ([key, v]) =>
        key.length > 0 &&
        key.length <= MAX_METADATA_KEY_LENGTH &&
        typeof v === 'string' &&
        v.length <= MAX_METADATA_VALUE_LENGTH,
    )
  );
}

/** The caller's metadata: a small flat object of strings. */
export function IsFlatStringMap(options?: ValidationOptions): PropertyDecorator {
  return (object, propertyName) => {
    registerDecorator({
      name: 'isFlatStringMap',
      target: object.constructor,
      propertyName: String(propertyName),
      options: {
        message: `${String(propertyName)} must be an object of at most ${MAX_METADATA_KEYS} string values (keys up to ${MAX_METADATA_KEY_LENGTH} characters, values up to ${MAX_METADATA_VALUE_LENGTH})`,
        ...options,
      },
      validator: { validate: isFlatStringMap },
    });
  };
}
