import {
  CONTRACT_SCHEDULE,
  classify,
  mayStart,
  nextStep,
  scaledSchedule,
  type AttemptOutcome,
  type NextStep,
} from './retry-policy';

/** A random source that replays the given values, in order. */
function randoms(...values: number[]): () => number {
  let i = 0;
  return () => {
    const value = values[i % values.length];
    i += 1;
    return value;
  };
}

/**
 * Runs the policy against a receiver that always fails, on a fake clock: each attempt takes
 * `attemptMs`, and the next starts exactly when the policy says. Returns each attempt's start.
 */
function failForever(attemptMs: number, random: () => number, outcome: AttemptOutcome = { statusCode: 503 }) {
  const starts: number[] = [];
  let now = 1_795_334_400_000;
  const first = now;
  let step: NextStep;
  for (let n = 1; ; n += 1) {
    starts.push(now);
    now += attemptMs;
    step = nextStep(CONTRACT_SCHEDULE, { n, firstAttemptAt: first, endedAt: now, outcome }, random);
    if (step.state !== 'pending') break;
    expect(step.nextAttemptAt).toBeGreaterThanOrEqual(now);
    now = step.nextAttemptAt;
  }
  return { starts, first, step };
}

describe('retry schedule', () => {
  it('waits 2, 4, 8, 16, 32, 60, 60, 60, 60 s, each plus the jitter drawn, then stops after 10 attempts', () => {
    const jitters = [0, 0.5, 0.999, 0.25, 0.1, 0.9, 0.3, 0.7, 0.05];
    const { starts, step } = failForever(0, randoms(...jitters));
    const waits = starts.slice(1).map((start, i) => start - starts[i]);
    const expected = [2, 4, 8, 16, 32, 60, 60, 60, 60].map((s, i) => s * 1000 + jitters[i] * 2000);
    expect(waits).toHaveLength(9);
    waits.forEach((wait, i) => expect(wait).toBeCloseTo(expected[i], 6));
    expect(starts).toHaveLength(10);
    expect(step).toEqual({ state: 'failed', reason: 'attempts_exhausted' });
  });

  it('keeps the jitter within [0, 2) s', () => {
    const { starts } = failForever(0, randoms(0.9999999));
    const waits = starts.slice(1).map((start, i) => start - starts[i]);
    const backoffs = [2, 4, 8, 16, 32, 60, 60, 60, 60].map((s) => s * 1000);
    waits.forEach((wait, i) => {
      expect(wait - backoffs[i]).toBeGreaterThanOrEqual(0);
      expect(wait - backoffs[i]).toBeLessThan(2000);
    });
  });

  it('stops at 15 minutes when attempts are slow: no attempt starts later than that after the first', () => {
    // Each attempt runs into a 100 s timeout: 10 attempts would need far more than 15 minutes.
    const { starts, first, step } = failForever(100_000, randoms(0.5), { error: 'timeout' });
    expect(starts.length).toBeLessThan(10);
    for (const start of starts) expect(start - first).toBeLessThanOrEqual(15 * 60_000);
    expect(step).toEqual({ state: 'failed', reason: 'window_exceeded' });
    // The attempt that was refused would have started past the window.
    const lastEnd = starts[starts.length - 1] + 100_000;
    const wouldStart = lastEnd + Math.min(60_000, 2000 * 2 ** (starts.length - 1)) + 1000;
    expect(wouldStart - first).toBeGreaterThan(15 * 60_000);
  });

  it('lets a due attempt start only inside the window, measured from the first attempt', () => {
    expect(mayStart(CONTRACT_SCHEDULE, null, 10 ** 13)).toBe(true);
    expect(mayStart(CONTRACT_SCHEDULE, 0, 15 * 60_000)).toBe(true);
    expect(mayStart(CONTRACT_SCHEDULE, 0, 15 * 60_000 + 1)).toBe(false);
  });

  it('delivers on the first 2xx and gives up at once on a permanent rejection', () => {
    const random = randoms(0);
    const attempt = { n: 3, firstAttemptAt: 0, endedAt: 10_000 };
    expect(nextStep(CONTRACT_SCHEDULE, { ...attempt, outcome: { statusCode: 204 } }, random)).toEqual({
      state: 'delivered',
    });
    expect(nextStep(CONTRACT_SCHEDULE, { ...attempt, outcome: { statusCode: 404 } }, random)).toEqual({
      state: 'failed',
      reason: 'rejected',
    });
  });

  it('scales every duration of the schedule, never the number of attempts', () => {
    expect(scaledSchedule(0.001)).toEqual({
      maxAttempts: 10,
      baseDelayMs: 2,
      maxDelayMs: 60,
      jitterMs: 2,
      windowMs: 900,
    });
    expect(scaledSchedule(1)).toEqual(CONTRACT_SCHEDULE);
  });
});

describe('classification of an attempt', () => {
  it.each([200, 201, 202, 204, 299])('%i is delivered', (statusCode) => {
    expect(classify({ statusCode })).toBe('delivered');
  });

  it.each([408, 429, 500, 502, 503, 504])('%i is retried (named by the specification)', (statusCode) => {
    expect(classify({ statusCode })).toBe('retry');
  });

  it.each([400, 401, 403, 404, 409, 422])(
    '%i gives up at once (named by the specification)',
    (statusCode) => {
      expect(classify({ statusCode })).toBe('give_up');
    },
  );

  it.each([301, 302, 303, 307, 308, 304, 405, 410, 413, 415, 451])(
    '%i, another 3xx or 4xx, gives up at once (redirects are not followed)',
    (statusCode) => {
      expect(classify({ statusCode })).toBe('give_up');
    },
  );

  it.each([501, 505, 507, 511, 599])('%i, another 5xx, is retried', (statusCode) => {
    expect(classify({ statusCode })).toBe('retry');
  });

  it.each(['timeout', 'connection_refused', 'connection_reset', 'dns_failure', 'network_error'] as const)(
    'a %s is retried',
    (error) => {
      expect(classify({ error })).toBe('retry');
    },
  );

  it('gives up at once on a destination the profile refuses at connect time', () => {
    expect(classify({ error: 'destination_refused' })).toBe('give_up');
  });
});
