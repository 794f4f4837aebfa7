import { PeriodicTask, type Timers } from './periodic-task';

/** Timers a test moves by hand: `fire()` runs what is due, in order. */
class HandTimers implements Timers {
  private pending: Array<{ at: number; callback: () => void; id: number }> = [];
  private next = 0;
  now = 0;
  waits: number[] = [];
  unrefs = 0;

  setTimeout(callback: () => void, ms: number): { unref: () => void } {
    const id = ++this.next;
    this.waits.push(ms);
    this.pending.push({ at: this.now + ms, callback, id });
    const handle = { id, unref: () => (this.unrefs += 1) };
    return handle;
  }

  clearTimeout(handle: unknown): void {
    this.pending = this.pending.filter((entry) => entry.id !== (handle as { id: number }).id);
  }

  get scheduled(): number {
    return this.pending.length;
  }

  /** Moves the clock to the next due timer and runs it. */
  async fire(): Promise<void> {
    const [first] = this.pending.sort((a, b) => a.at - b.at);
    if (first === undefined) throw new Error('nothing scheduled');
    this.pending.shift();
    this.now = first.at;
    first.callback();
    await flush();
  }
}

const flush = async (): Promise<void> => {
  for (let i = 0; i < 10; i += 1) await Promise.resolve();
};

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = (): void => undefined;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

describe('PeriodicTask', () => {
  it('runs a turn every period once started, and never keeps the process alive', async () => {
    const timers = new HandTimers();
    let turns = 0;
    new PeriodicTask({ name: 't', everyMs: 100, timers, run: () => (turns += 1) }).start();
    expect(turns).toBe(0);
    await timers.fire();
    await timers.fire();
    expect(turns).toBe(2);
    expect(timers.now).toBe(200);
    expect(timers.unrefs).toBe(3);
  });

  it('never runs two turns at once: a turn asked for while one runs joins it', async () => {
    const timers = new HandTimers();
    const gate = deferred();
    let turns = 0;
    const task = new PeriodicTask({
      name: 't',
      everyMs: 100,
      timers,
      run: async () => {
        turns += 1;
        await gate.promise;
      },
    });
    const first = task.runNow();
    const second = task.runNow();
    expect(second).toBe(first);
    gate.resolve();
    await first;
    expect(turns).toBe(1);
  });

  it('waits for the turn under way after the last one ends: a slow turn does not pile up the next', async () => {
    const timers = new HandTimers();
    const gate = deferred();
    const task = new PeriodicTask({ name: 't', everyMs: 100, timers, run: () => gate.promise }).start();
    await timers.fire();
    expect(timers.scheduled).toBe(0);
    gate.resolve();
    await flush();
    expect(timers.scheduled).toBe(1);
    await task.stop();
  });

  it('reports a failed turn and goes on with the next', async () => {
    const timers = new HandTimers();
    const failures: Array<[string, string]> = [];
    let turns = 0;
    new PeriodicTask({
      name: 'sweep',
      everyMs: 100,
      timers,
      run: () => {
        turns += 1;
        if (turns === 1) throw new Error('store down');
      },
      failed: (name, error) => failures.push([name, (error as Error).message]),
    }).start();
    await timers.fire();
    await timers.fire();
    expect(failures).toEqual([['sweep', 'store down']]);
    expect(turns).toBe(2);
  });

  it('runs a turn only where its lease is held, and reports a lease that cannot be asked', async () => {
    const timers = new HandTimers();
    const answers: Array<boolean | Error> = [false, true, new Error('no database')];
    const failures: string[] = [];
    let turns = 0;
    new PeriodicTask({
      name: 'retention',
      everyMs: 100,
      timers,
      held: async () => {
        const answer = answers.shift();
        if (answer instanceof Error) throw answer;
        return answer ?? false;
      },
      run: () => (turns += 1),
      failed: (_name, error) => failures.push((error as Error).message),
    }).start();
    await timers.fire();
    await timers.fire();
    await timers.fire();
    expect(turns).toBe(1);
    expect(failures).toEqual(['no database']);
  });

  it('spreads its waits within the jitter asked for', async () => {
    const timers = new HandTimers();
    const randoms = [0, 0.999999, 0.5];
    new PeriodicTask({
      name: 't',
      everyMs: 1000,
      jitter: 0.2,
      timers,
      random: () => randoms.shift() ?? 0.5,
      run: () => undefined,
    }).start();
    await timers.fire();
    await timers.fire();
    expect(timers.waits).toEqual([800, 1200, 1000]);
  });

  it('stops: no turn after stop(), which waits for the turn under way', async () => {
    const timers = new HandTimers();
    const gate = deferred();
    let ended = false;
    let turns = 0;
    const task = new PeriodicTask({
      name: 't',
      everyMs: 100,
      timers,
      run: async () => {
        turns += 1;
        await gate.promise;
        ended = true;
      },
    }).start();
    await timers.fire();
    const stopped = task.stop();
    expect(task.stopping).toBe(true);
    let stopEnded = false;
    void stopped.then(() => (stopEnded = true));
    await flush();
    expect(stopEnded).toBe(false);
    gate.resolve();
    await stopped;
    expect(ended).toBe(true);
    expect(timers.scheduled).toBe(0);
    await task.runNow();
    expect(turns).toBe(1);
  });

  it('refuses a period or jitter that makes no sense', () => {
    expect(() => new PeriodicTask({ name: 't', everyMs: 0, run: () => undefined })).toThrow(RangeError);
    expect(() => new PeriodicTask({ name: 't', everyMs: 10, jitter: 2, run: () => undefined })).toThrow(
      RangeError,
    );
  });
});
