/**
 * The terminal's timer, injected so that tests drive waits (10 s, 60 s) without sleeping.
 * `after` never calls back synchronously; it returns a function that cancels the call.
 */
export interface Timers {
  after(ms: number, callback: () => void): () => void;
}

export const REAL_TIMERS: Timers = {
  after(ms, callback) {
    const timer = setTimeout(callback, Math.max(0, ms));
    return () => clearTimeout(timer);
  },
};

export function sleep(timers: Timers, ms: number): Promise<void> {
  return new Promise((resolve) => timers.after(ms, resolve));
}
