import type { RunClock } from './run-ports';

/** When the receiver first searched for each client_transaction_id, on the run's clock. */
export class SearchSightings {
  private readonly seen = new Map<string, number>();
  private readonly waiting = new Map<string, () => void>();

  constructor(private readonly clock: RunClock) {}

  saw(clientTransactionId: string | undefined): void {
    if (clientTransactionId === undefined || this.seen.has(clientTransactionId)) return;
    this.seen.set(clientTransactionId, this.clock.nowMs());
    this.waiting.get(clientTransactionId)?.();
  }

  /** When a search for the id came by `untilMs` (the run's clock), or null when none did. */
  async seenBy(clientTransactionId: string, untilMs: number, signal: AbortSignal): Promise<number | null> {
    const remaining = untilMs - this.clock.nowMs();
    if (!this.seen.has(clientTransactionId) && remaining > 0) {
      const ended = new AbortController();
      const sighted = new Promise<void>((resolve) => this.waiting.set(clientTransactionId, resolve));
      await Promise.race([sighted, this.clock.sleep(remaining, AbortSignal.any([signal, ended.signal]))]);
      ended.abort();
      this.waiting.delete(clientTransactionId);
    }
    const at = this.seen.get(clientTransactionId);
    return at !== undefined && at <= untilMs ? at : null;
  }
}
