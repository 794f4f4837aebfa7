import { SlidingWindowLimiter } from './sliding-window-limiter';

function clockAt(start: number): { now: () => number; advance: (ms: number) => void } {
  let at = start;
  return { now: () => at, advance: (ms) => (at += ms) };
}

describe('SlidingWindowLimiter', () => {
  it('admits `limit` requests in any window, refuses the next with the seconds until a slot frees', () => {
    const clock = clockAt(1_000_000);
    const limiter = new SlidingWindowLimiter(3, 10_000, clock.now);
    expect(limiter.take('m')).toEqual({ admitted: true });
    clock.advance(4_000);
    expect(limiter.take('m')).toEqual({ admitted: true });
    expect(limiter.take('m')).toEqual({ admitted: true });
    clock.advance(1_500);
    // The first admission leaves the window 10 s after it came: 4.5 s from now, so 5 whole seconds.
    expect(limiter.take('m')).toEqual({ admitted: false, retryAfterSeconds: 5 });
    clock.advance(4_499);
    expect(limiter.take('m')).toEqual({ admitted: false, retryAfterSeconds: 1 });
    clock.advance(1);
    expect(limiter.take('m')).toEqual({ admitted: true });
    // The two admitted at 4 s are still in the window, with the one just admitted.
    expect(limiter.take('m')).toEqual({ admitted: false, retryAfterSeconds: 4 });
  });

  it('does not count refused requests, and keeps each key to its own budget', () => {
    const clock = clockAt(0);
    const limiter = new SlidingWindowLimiter(2, 1_000, clock.now);
    limiter.take('a');
    limiter.take('a');
    for (let i = 0; i < 50; i++) expect(limiter.take('a').admitted).toBe(false);
    expect(limiter.take('b')).toEqual({ admitted: true });
    clock.advance(1_000);
    expect(limiter.take('a')).toEqual({ admitted: true });
    expect(limiter.take('a')).toEqual({ admitted: true });
    expect(limiter.take('a').admitted).toBe(false);
  });

  it('keeps its order across the ring growing and wrapping', () => {
    const clock = clockAt(0);
    const limiter = new SlidingWindowLimiter(100, 1_000, clock.now);
    for (let round = 0; round < 5; round++) {
      for (let i = 0; i < 100; i++) {
        expect(limiter.take('m')).toEqual({ admitted: true });
        clock.advance(3);
      }
      // 100 admissions 3 ms apart: the oldest frees 1000 - 300 ms from now.
      expect(limiter.take('m')).toEqual({ admitted: false, retryAfterSeconds: 1 });
      clock.advance(1_000 - 300 + 1);
      expect(limiter.take('m')).toEqual({ admitted: true });
      clock.advance(1_000);
    }
  });

  it('drops keys idle for a whole window, without a timer', () => {
    const clock = clockAt(0);
    const limiter = new SlidingWindowLimiter(10, 1_000, clock.now);
    for (let i = 0; i < 300; i++) limiter.take(`merchant-${i}`);
    expect(limiter.keyCount).toBe(300);
    clock.advance(600);
    limiter.take('busy');
    clock.advance(600);
    limiter.take('busy');
    expect(limiter.keyCount).toBe(1);
  });
});
