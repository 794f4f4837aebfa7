import { REAL_TIMERS } from './timers';

describe('REAL_TIMERS', () => {
  it('calls a 0 ms wait back on a later pass of the event loop, never at once; a cancel stops it', async () => {
    const calls: string[] = [];
    REAL_TIMERS.after(0, () => calls.push('zero'));
    const cancel = REAL_TIMERS.after(0, () => calls.push('canceled'));
    cancel();
    expect(calls).toEqual([]);
    // Waits of one length are called back in the order they were set: this one comes after both.
    await new Promise((resolve) => REAL_TIMERS.after(0, () => resolve(undefined)));
    expect(calls).toEqual(['zero']);
  });

  it('calls a longer wait back once its time has passed', async () => {
    const calls: number[] = [];
    const started = Date.now();
    REAL_TIMERS.after(20, () => calls.push(Date.now() - started));
    const cancel = REAL_TIMERS.after(20, () => calls.push(-1));
    cancel();
    await new Promise((resolve) => REAL_TIMERS.after(20, () => resolve(undefined)));
    expect(calls).toHaveLength(1);
    expect(calls[0]).toBeGreaterThanOrEqual(19);
  });
});
