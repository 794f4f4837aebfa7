/**
 * Which topics the other processes want told, as each last said: a process says the whole set of
 * topics it wants whenever it changes and again every so often, so a word lasts a few of those
 * periods (a process that died stops being counted once its word runs out).
 */
export class TopicWants {
  private readonly byOrigin = new Map<string, { topics: ReadonlySet<string>; until: number }>();

  constructor(
    private readonly lastsMs: number,
    private readonly now: () => number,
  ) {}

  /** What `origin` wants now: replaces what it said before; nothing forgets it. */
  heard(origin: string, topics: readonly string[]): void {
    if (topics.length === 0) this.byOrigin.delete(origin);
    else this.byOrigin.set(origin, { topics: new Set(topics), until: this.now() + this.lastsMs });
  }

  /** Whether another process wants `topic`, by a word that still lasts. */
  wanted(topic: string): boolean {
    const now = this.now();
    for (const [origin, word] of this.byOrigin) {
      if (word.until <= now) this.byOrigin.delete(origin);
      else if (word.topics.has(topic)) return true;
    }
    return false;
  }
}
