/**
 * What retention removes from a terminal's store (contract, "Retention"): transactions dated
 * before a limit with their events, and the print jobs finished before it. Never what the service
 * has not heard yet: a transaction with an event still queued, or a job whose last change is
 * unreported, stays until the uplink has delivered it.
 */
export abstract class TerminalPurge {
  /**
   * One write: at most `batch` of the terminal's transactions (the oldest first) and as many print
   * jobs, dated before `before` (ISO 8601). Resolves the larger of the two counts: below `batch`,
   * nothing is left.
   */
  abstract purgeBatch(serial: string, before: string, batch: number): Promise<number>;
}
