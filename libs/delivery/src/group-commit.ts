interface Batch<T> {
  items: T[];
  written: Promise<void>;
}

/**
 * Group commit: one write at a time, and the items added while one is under way share the next.
 * `write` receives a `take` that closes the batch and returns its items; it calls it once its
 * transaction has begun, so whatever arrives later goes to the next write. Each caller learns how
 * its own batch ended.
 *
 * One at a time even where the store takes writes side by side (PostgreSQL's pool): each write
 * costs the database a commit (a flush of its log), and a write that waits for the one before it
 * gathers what ends meanwhile, where writes side by side would each begin with whatever had
 * arrived by their BEGIN.
 */
export class GroupCommit<T> {
  private open: Batch<T> | undefined;
  /** The last write asked for, settled either way: the next one starts after it. */
  private last: Promise<unknown> = Promise.resolve();

  constructor(private readonly write: (take: () => T[]) => Promise<void>) {}

  add(item: T): Promise<void> {
    const open = this.open;
    if (open !== undefined) {
      open.items.push(item);
      return open.written;
    }
    const batch: Batch<T> = { items: [item], written: Promise.resolve() };
    this.open = batch;
    const close = (): void => {
      if (this.open === batch) this.open = undefined;
    };
    batch.written = this.last.then(() =>
      this.write(() => {
        close();
        return batch.items;
      }),
    );
    // Closed as well when the write failed before taking its batch: later items are not stuck on it.
    batch.written.catch(close);
    this.last = batch.written.catch(() => undefined);
    return batch.written;
  }
}
