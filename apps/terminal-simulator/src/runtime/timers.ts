/**
 * The terminal's timer, injected so that tests drive waits (10 s, 60 s) without sleeping.
 * `after` never calls back synchronously; it returns a function that cancels the call.
 */
export interface Timers {
  after(ms: number, callback: () => void): () => void;
}

export const REAL_TIMERS: Timers = {
  after(ms, callback) {
    // A wait of 0 ms (pace instant) still lets what arrived meanwhile (an abort) in first, as a
    // timer would, but costs no timer: the next pass of the event loop, after its I/O.
    if (ms <= 0) {
      const immediate = setImmediate(callback);
      return () => clearImmediate(immediate);
    }
    const timer = setTimeout(callback, ms);
    return () => clearTimeout(timer);
  },
};

export function sleep(timers: Timers, ms: number): Promise<void> {
  return new Promise((resolve) => timers.after(ms, resolve));
}
