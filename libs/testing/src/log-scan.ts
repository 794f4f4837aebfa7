/**
 * What no log line may hold (README, "Logs"): a secret the apps were given or made, a request or
 * webhook signature, an Authorization value, a full card number. Found by value (the secrets a run
 * used) and by shape (what a secret key, a signature or a card number looks like), so a secret made
 * during a run that no test names is found too.
 */
const SHAPES: ReadonlyArray<[what: string, pattern: RegExp]> = [
  // A sandbox account's secret key and a request's HMAC-SHA256 signature are 64 hex digits.
  ['a secret key or request signature (64 hex digits)', /(?<![0-9a-fA-F])[0-9a-fA-F]{64}(?![0-9a-fA-F])/g],
  ['a webhook secret', /whsec_[A-Za-z0-9+/=_-]{8,}/g],
  ['a webhook signature', /v1,[A-Za-z0-9+/]{43}=/g],
  ['an Authorization value', /Basic [A-Za-z0-9+/]{16,}={0,2}/g],
];
/**
 * A run of 13 to 19 digits that begins as card numbers do (2 to 6); it is one if its check digit
 * holds. Not the digits inside a hex id (a `trace_id` often holds such a run).
 */
const CARD_LIKE = /(?<![0-9A-Fa-f])[2-6]\d{12,18}(?![0-9A-Fa-f])/g;

/** A run of 13 to 19 digits, whatever it begins with: what a card number looks like. Not the digits inside a hex id. */
export const PAN_LIKE = /(?<![0-9A-Fa-f])\d{13,19}(?![0-9A-Fa-f])/;

/** Trace and span ids as the log lines carry them: the value of a field, or a W3C traceparent. */
const TRACE_IDS = /(?<="(?:trace_id|span_id)":")[0-9a-f]+(?=")|\b00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}\b/g;

/**
 * `output` with every trace and span id masked, same length: a span id is 16 hex digits, and one
 * in 1,800 is all decimal digits, which a card-number check would take for one.
 */
export function withoutTraceIds(output: string): string {
  return output.replace(TRACE_IDS, (ids) => 'x'.repeat(ids.length));
}

export interface LogLeak {
  app: string;
  what: string;
  /** The line it was found on (1-based), and the start of what was found: enough to find it, not to use it. */
  line: number;
  found: string;
}

function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

function lineAt(output: string, index: number): number {
  let line = 1;
  for (let at = output.indexOf('\n'); at !== -1 && at < index; at = output.indexOf('\n', at + 1)) line += 1;
  return line;
}

/** The leaks in one app's output; `secrets`: values that must not appear, whatever their shape. */
export function findLogLeaks(app: string, output: string, secrets: Iterable<string>): LogLeak[] {
  const leaks: LogLeak[] = [];
  const leak = (what: string, index: number, found: string): void => {
    leaks.push({ app, what, line: lineAt(output, index), found: `${found.slice(0, 6)}…` });
  };
  for (const secret of new Set(secrets)) {
    if (secret.length < 8) continue;
    const index = output.indexOf(secret);
    if (index !== -1) leak('a secret the run used', index, secret);
  }
  for (const [what, pattern] of SHAPES) {
    for (const match of output.matchAll(pattern)) leak(what, match.index, match[0]);
  }
  for (const match of withoutTraceIds(output).matchAll(CARD_LIKE)) {
    if (luhnValid(match[0])) leak('a card number', match.index, match[0]);
  }
  return leaks;
}

/** The secret values of an app's environment: what a variable named as a secret, key or token holds. */
export function secretsOfEnv(env: Record<string, string>): string[] {
  const secrets: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (!/SECRET|TOKEN|KEY/.test(name) || name.endsWith('_FILE')) continue;
    if (name !== 'SECRETS_KEY') secrets.push(value);
    // A list of <id>:<key>: each key is the secret, not its id.
    else secrets.push(...value.split(',').map((entry) => entry.slice(entry.indexOf(':') + 1).trim()));
  }
  return secrets;
}
