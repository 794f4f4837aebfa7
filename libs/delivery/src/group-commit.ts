interface Batch<T> {
  items: T[];
  written: Promise<void>;
}

/**
 * Group commit: items added while a write waits its turn share that write. `write` receives a
 * `take` that closes the batch and returns its items; it calls it once its transaction has begun,
 * so whatever arrives later goes to the next write. Each caller learns how its own batch ended.
 */
export class GroupCommit<T> {
  private open: Batch<T> | undefined;

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
    batch.written = this.write(() => {
      close();
      return batch.items;
    });
    // Closed as well when the write failed before taking its batch: later items are not stuck on it.
    batch.written.catch(close);
    return batch.written;
  }
}
