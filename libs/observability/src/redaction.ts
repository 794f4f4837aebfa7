/**
 * Fields whose values never reach a log line, wherever a log call puts them (top level or one
 * object down): secrets, signatures, the Authorization header and card numbers.
 */
const SENSITIVE_KEYS = [
  'secret',
  'secret_key',
  'secretKey',
  'webhook_secret',
  'webhookSecret',
  'authorization',
  'signature',
  '"webhook-signature"',
  'pan',
  'password',
  'token',
];

export const REDACT_PATHS: string[] = SENSITIVE_KEYS.flatMap((key) => {
  const nested = key.startsWith('"') ? `*[${key}]` : `*.${key}`;
  return [key.startsWith('"') ? `[${key}]` : key, nested];
});

export const REDACTED = '[redacted]';
