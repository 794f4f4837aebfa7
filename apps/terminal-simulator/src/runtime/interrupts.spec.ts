import { Interrupts, type Wake } from './interrupts';
import { ManualTimers, settle } from './testing/manual-timers';

describe('Interrupts', () => {
  it('a wait ends when its time passes, and the card control has nothing to act on after', async () => {
    const timers = new ManualTimers();
    const interrupts = new Interrupts(timers);
    let wake: Wake | undefined;
    void interrupts.wait(100, true).then((w) => (wake = w));
    expect(interrupts.waitingForCard).toBe(true);
    await timers.advance(99);
    expect(wake).toBeUndefined();
    await timers.advance(1);
    expect(wake).toEqual({ kind: 'elapsed' });
    expect(interrupts.card({ action: 'cancel' })).toBe(false);
  });

  it('an abort ends a wait at once and cancels its timer; later waits end at once too', async () => {
    const timers = new ManualTimers();
    const interrupts = new Interrupts(timers);
    const first = interrupts.wait(60_000, false);
    expect(interrupts.requestAbort()).toBe(true);
    expect(await first).toEqual({ kind: 'abort' });
    expect(timers.pending).toBe(0);
    expect(await interrupts.wait(10, true)).toEqual({ kind: 'abort' });
  });

  it('takes a card only in a card wait', async () => {
    const interrupts = new Interrupts(new ManualTimers());
    const plain = interrupts.wait(10, false);
    expect(interrupts.card({ action: 'present', readingType: 'CHIP' })).toBe(false);
    interrupts.requestAbort();
    await plain;
    const other = new Interrupts(new ManualTimers());
    const forCard = other.wait(10, true);
    expect(other.card({ action: 'present', readingType: 'CONTACTLESS' })).toBe(true);
    expect(await forCard).toEqual({ kind: 'card', card: { action: 'present', readingType: 'CONTACTLESS' } });
  });

  it('refuses an abort once committed (the point of no return), and the wait runs its course', async () => {
    const timers = new ManualTimers();
    const interrupts = new Interrupts(timers);
    interrupts.commit();
    let wake: Wake | undefined;
    void interrupts.wait(5, false).then((w) => (wake = w));
    expect(interrupts.requestAbort()).toBe(false);
    await settle();
    expect(wake).toBeUndefined();
    await timers.advance(5);
    expect(wake).toEqual({ kind: 'elapsed' });
  });
});
