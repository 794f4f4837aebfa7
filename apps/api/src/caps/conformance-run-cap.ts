import { RateLimitedError } from '@tps/domain';

/** The cap's name in answers, logs and metrics. */
export const CONFORMANCE_RUNS_PER_ADDRESS = 'conformance_runs_per_address';

/**
 * Whether one more conformance run from `address` meets its cap (contract §22): the refusal to
 * answer (429 RATE-001, naming the cap and its value), or null. `running` are the runs going on
 * in the whole sandbox, each with the client address that started it, whichever account it is.
 */
export function conformanceRunRefusal(
  cap: number | undefined,
  address: string,
  running: ReadonlyArray<{ clientAddress: string | null }>,
  retryAfterSeconds: number,
): RateLimitedError | null {
  if (cap === undefined) return null;
  const own = running.filter((run) => run.clientAddress === address).length;
  if (own < cap) return null;
  return new RateLimitedError(
    retryAfterSeconds,
    `this client address has ${own} conformance run(s) going on, over any of its accounts: its cap (${CONFORMANCE_RUNS_PER_ADDRESS} = ${cap})`,
  );
}
