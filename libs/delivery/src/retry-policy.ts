/**
 * The retry policy of transaction webhooks (contract §6), as pure code: which outcomes retry,
 * when the next attempt starts, and when delivery stops. Time and randomness come in as values,
 * so the schedule can be checked exactly.
 */

/**
 * Why an attempt got no HTTP status. `destination_refused`: the host resolved, at connect time,
 * to an address the profile forbids (production: non-public), so nothing was sent.
 * `secret_unavailable`: the merchant's signing secret could not be opened (sealed under a key the
 * service does not hold), so nothing was sent: never unsigned in its place.
 */
export type AttemptErrorKind =
  | 'timeout'
  | 'connection_refused'
  | 'connection_reset'
  | 'dns_failure'
  | 'network_error'
  | 'destination_refused'
  | 'secret_unavailable';

export const ATTEMPT_ERROR_KINDS: readonly AttemptErrorKind[] = [
  'timeout',
  'connection_refused',
  'connection_reset',
  'dns_failure',
  'network_error',
  'destination_refused',
  'secret_unavailable',
];

/** What one attempt came to: a status answered, or an error before any. */
export type AttemptOutcome = { statusCode: number } | { error: AttemptErrorKind };

export type Verdict = 'delivered' | 'retry' | 'give_up';

const RETRY_STATUSES = new Set([408, 429, 500, 502, 503, 504]);
const PERMANENT_STATUSES = new Set([400, 401, 403, 404, 409, 422]);

export function classify(outcome: AttemptOutcome): Verdict {
  if ('error' in outcome) {
    // network_error is any other transport failure (unreachable host, TLS handshake): as transient as a reset.
    switch (outcome.error) {
      case 'timeout':
      case 'connection_refused':
      case 'connection_reset':
      case 'dns_failure':
      case 'network_error':
        return 'retry';
      // The operator's to fix (the missing key added back): the schedule gives that time, and bounds it.
      case 'secret_unavailable':
        return 'retry';
      // Our own refusal, not the receiver's answer: trying again would only be refused again.
      case 'destination_refused':
        return 'give_up';
    }
  }
  const { statusCode } = outcome;
  if (statusCode >= 200 && statusCode < 300) return 'delivered';
  if (RETRY_STATUSES.has(statusCode)) return 'retry';
  if (PERMANENT_STATUSES.has(statusCode)) return 'give_up';
  // Redirects are not followed: a 3xx, like any other 4xx, is the receiver's permanent answer.
  return statusCode >= 500 ? 'retry' : 'give_up';
}

export interface RetrySchedule {
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  jitterMs: number;
  /** No attempt starts later than this after the first one. */
  windowMs: number;
}

export const CONTRACT_SCHEDULE: RetrySchedule = {
  maxAttempts: 10,
  baseDelayMs: 2_000,
  maxDelayMs: 60_000,
  jitterMs: 2_000,
  windowMs: 15 * 60_000,
};

/**
 * The contract's schedule with every duration multiplied by `scale`, so that end-to-end tests
 * run the real policy in milliseconds; the number of attempts does not change.
 */
export function scaledSchedule(scale: number): RetrySchedule {
  return {
    maxAttempts: CONTRACT_SCHEDULE.maxAttempts,
    baseDelayMs: CONTRACT_SCHEDULE.baseDelayMs * scale,
    maxDelayMs: CONTRACT_SCHEDULE.maxDelayMs * scale,
    jitterMs: CONTRACT_SCHEDULE.jitterMs * scale,
    windowMs: CONTRACT_SCHEDULE.windowMs * scale,
  };
}

/** The wait after failed attempt `k` (from 1): min(cap, base × 2^(k-1)) + uniform[0, jitter). */
export function retryDelayMs(schedule: RetrySchedule, k: number, random: () => number): number {
  const backoff = Math.min(schedule.maxDelayMs, schedule.baseDelayMs * 2 ** (k - 1));
  return backoff + random() * schedule.jitterMs;
}

/** Why a delivery stopped: the receiver refused it, or the 10 attempts or 15 minutes ran out. */
export type DeliveryFailure = 'rejected' | 'attempts_exhausted' | 'window_exceeded';

export type NextStep =
  | { state: 'delivered' }
  | { state: 'failed'; reason: DeliveryFailure }
  | { state: 'pending'; nextAttemptAt: number };

export interface FinishedAttempt {
  /** This attempt's number, from 1. */
  n: number;
  /** When attempt 1 started (epoch ms). */
  firstAttemptAt: number;
  /** When this attempt ended (epoch ms): the wait counts from here. */
  endedAt: number;
  outcome: AttemptOutcome;
}

/** What follows a finished attempt. */
export function nextStep(schedule: RetrySchedule, attempt: FinishedAttempt, random: () => number): NextStep {
  const verdict = classify(attempt.outcome);
  switch (verdict) {
    case 'delivered':
      return { state: 'delivered' };
    case 'give_up':
      return { state: 'failed', reason: 'rejected' };
    case 'retry':
      break;
  }
  if (attempt.n >= schedule.maxAttempts) return { state: 'failed', reason: 'attempts_exhausted' };
  const nextAttemptAt = attempt.endedAt + retryDelayMs(schedule, attempt.n, random);
  if (!mayStart(schedule, attempt.firstAttemptAt, nextAttemptAt)) {
    return { state: 'failed', reason: 'window_exceeded' };
  }
  return { state: 'pending', nextAttemptAt };
}

/**
 * Whether an attempt may start at `at`. Checked again when an attempt is due, because a service
 * that was down may find a pending delivery past its window.
 */
export function mayStart(schedule: RetrySchedule, firstAttemptAt: number | null, at: number): boolean {
  return firstAttemptAt === null || at - firstAttemptAt <= schedule.windowMs;
}
