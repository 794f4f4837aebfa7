import type { Timers } from '../timers';

interface Scheduled {
  at: number;
  order: number;
  callback: () => void;
}

/** Lets every pending promise callback run (the in-memory store answers on later ticks too). */
export async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
}

/** A virtual clock for unit tests: time moves only when the test advances it. */
export class ManualTimers implements Timers {
  private nowMs = 0;
  private counter = 0;
  private scheduled: Scheduled[] = [];

  get now(): number {
    return this.nowMs;
  }

  get pending(): number {
    return this.scheduled.length;
  }

  after(ms: number, callback: () => void): () => void {
    const entry: Scheduled = { at: this.nowMs + Math.max(0, ms), order: this.counter++, callback };
    this.scheduled.push(entry);
    return () => {
      this.scheduled = this.scheduled.filter((other) => other !== entry);
    };
  }

  /** Moves time forward by `ms`, firing each timer due on the way, in time order. */
  async advance(ms: number): Promise<void> {
    const until = this.nowMs + ms;
    for (;;) {
      await settle();
      const next = this.next();
      if (next === undefined || next.at > until) break;
      this.scheduled = this.scheduled.filter((other) => other !== next);
      this.nowMs = next.at;
      next.callback();
    }
    this.nowMs = until;
    await settle();
  }

  /** Fires timers until none is left (bounded, so a runaway loop fails the test). */
  async runAll(maxTimers = 1000): Promise<void> {
    for (let fired = 0; fired < maxTimers; fired++) {
      await settle();
      const next = this.next();
      if (next === undefined) return;
      await this.advance(next.at - this.nowMs);
    }
    throw new Error(`more than ${maxTimers} timers: a loop that never ends?`);
  }

  private next(): Scheduled | undefined {
    return [...this.scheduled].sort((a, b) => a.at - b.at || a.order - b.order)[0];
  }
}
