/** How long the service's acknowledgements wait in memory before they are written together. */
export const ACK_WRITE_MS = 200;

/** Writes acknowledged queue rows (by seq, and by event id) to the store, in one write. */
export type AcknowledgementWriter = (seqs: number[], eventIds: string[]) => Promise<void>;

/**
 * The service's acknowledgements of the terminal's queued events, kept in memory and written
 * together every ACK_WRITE_MS instead of a write for each `stored` notice and each uplink answer.
 * Until written, the queue's reads leave them out (`holds`). A crash loses only acknowledgements:
 * the terminal then sends those events again, and the service recognises them as stored. A write
 * that fails keeps them, for the next.
 */
export class DeferredAcknowledgements {
  private readonly seqs = new Set<number>();
  private readonly eventIds = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(private readonly write: AcknowledgementWriter) {}

  /** How many are held (an upper bound of the queue rows they leave out). */
  get size(): number {
    return this.seqs.size + this.eventIds.size;
  }

  add(seqs: readonly number[], eventIds: readonly string[]): void {
    for (const seq of seqs) this.seqs.add(seq);
    for (const id of eventIds) this.eventIds.add(id);
    this.schedule();
  }

  /** Whether this queue row is acknowledged, written or not. */
  holds(seq: number, eventId: string): boolean {
    return this.seqs.has(seq) || this.eventIds.has(eventId);
  }

  /** Writes what is held now; they leave memory only once the write committed. */
  async writeNow(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const seqs = [...this.seqs];
    const eventIds = [...this.eventIds];
    if (seqs.length === 0 && eventIds.length === 0) return;
    try {
      await this.write(seqs, eventIds);
    } catch (error) {
      this.schedule();
      throw error;
    }
    for (const seq of seqs) this.seqs.delete(seq);
    for (const id of eventIds) this.eventIds.delete(id);
  }

  /** No timed write any more (the store closes); `writeNow` still writes. */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(): void {
    if (this.timer !== undefined || this.stopped || this.size === 0) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      // A failed write is scheduled again by writeNow; the storage's health tells the failure.
      this.writeNow().catch(() => undefined);
    }, ACK_WRITE_MS);
    this.timer.unref();
  }
}
