interface Asker<V> {
  resolve(value: V | undefined): void;
  reject(error: unknown): void;
}

/**
 * Looks keys up many at a time: the keys asked for while a read is under way are read together by
 * the next one, so that thousands of links opening at once (a replica died and its fleet moved
 * here) cost a few statements, not one each; a key asked for alone is read at once. A read that
 * fails fails each of its askers.
 */
export class BatchedLookup<V> {
  /** The keys of the next read, each with its askers. */
  private next = new Map<string, Array<Asker<V>>>();
  private reading = false;

  constructor(private readonly readMany: (keys: string[]) => Promise<Map<string, V>>) {}

  get(key: string): Promise<V | undefined> {
    return new Promise<V | undefined>((resolve, reject) => {
      const askers = this.next.get(key) ?? [];
      askers.push({ resolve, reject });
      this.next.set(key, askers);
      if (!this.reading) void this.read();
    });
  }

  private async read(): Promise<void> {
    this.reading = true;
    while (this.next.size > 0) {
      const batch = this.next;
      this.next = new Map();
      try {
        const found = await this.readMany([...batch.keys()]);
        for (const [key, askers] of batch) for (const asker of askers) asker.resolve(found.get(key));
      } catch (error) {
        for (const askers of batch.values()) for (const asker of askers) asker.reject(error);
      }
    }
    this.reading = false;
  }
}
