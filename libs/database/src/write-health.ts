/**
 * While down, how long after the last failed write a health check writes a probe. A small probe
 * can fit where real writes do not (SQLite reuses its log's space), so it must not turn the health
 * `up` between two failing writes.
 */
const PROBE_AFTER_MS = 1000;

/** Whether the last write reached the storage; `down` until one does again. */
export interface StorageHealth {
  state: 'up' | 'down';
  /** When the current state began (ms since the epoch). */
  since: number;
  /** The storage failure that made it `down`. */
  reason?: string;
}

/** A data source's StorageHealth, as its writes find it. */
export class WriteHealth {
  private health: StorageHealth = { state: 'up', since: Date.now() };
  private lastFailureAt = 0;

  get current(): StorageHealth {
    return this.health;
  }

  reached(): void {
    if (this.health.state === 'down') this.health = { state: 'up', since: Date.now() };
  }

  failed(error: unknown): void {
    this.lastFailureAt = Date.now();
    if (this.health.state === 'up') {
      const reason = error instanceof Error ? error.message : String(error);
      this.health = { state: 'down', since: Date.now(), reason };
    }
  }

  /** Down, and long enough since the last failed write that a probe may tell something new. */
  probeDue(): boolean {
    return this.health.state === 'down' && Date.now() - this.lastFailureAt >= PROBE_AFTER_MS;
  }
}
