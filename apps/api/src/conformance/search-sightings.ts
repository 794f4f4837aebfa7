import type { RunClock } from './run-ports';

/**
 * When the account searched for each client_transaction_id, on the run's clock. Only a search
 * made after the event that calls for it counts: the account's own tools (the console reads each
 * finished transaction through search) search for the run's charges while they are made.
 */
export class SearchSightings {
  private readonly seen = new Map<string, number[]>();
  private readonly waiting = new Map<string, () => void>();

  constructor(private readonly clock: RunClock) {}

  saw(clientTransactionId: string | undefined): void {
    if (clientTransactionId === undefined) return;
    const times = this.seen.get(clientTransactionId) ?? [];
    times.push(this.clock.nowMs());
    this.seen.set(clientTransactionId, times);
    this.waiting.get(clientTransactionId)?.();
  }

  /** The first search for the id from `fromMs` to `untilMs` (the run's clock), or null when none came. */
  async seenBetween(
    clientTransactionId: string,
    fromMs: number,
    untilMs: number,
    signal: AbortSignal,
  ): Promise<number | null> {
    for (;;) {
      const at = this.first(clientTransactionId, fromMs, untilMs);
      const remaining = untilMs - this.clock.nowMs();
      if (at !== null || remaining <= 0 || signal.aborted) return at;
      const ended = new AbortController();
      const sighted = new Promise<void>((resolve) => this.waiting.set(clientTransactionId, resolve));
      await Promise.race([sighted, this.clock.sleep(remaining, AbortSignal.any([signal, ended.signal]))]);
      ended.abort();
      this.waiting.delete(clientTransactionId);
    }
  }

  private first(clientTransactionId: string, fromMs: number, untilMs: number): number | null {
    const at = (this.seen.get(clientTransactionId) ?? []).find((t) => t >= fromMs && t <= untilMs);
    return at ?? null;
  }
}
