import { overlaps, runKeyed, type KeyedWork } from './keyed-batch';

/** A write that logs its start and end, and ends when `release` is called for it. */
function gated(log: string[], name: string, keys?: string[]) {
  let release: () => void = () => undefined;
  const ended = new Promise<void>((resolve) => (release = resolve));
  const write: KeyedWork<string> = {
    keys,
    work: async () => {
      log.push(`start ${name}`);
      await ended;
      log.push(`end ${name}`);
      return name;
    },
  };
  return { write, release: () => release() };
}

const turns = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('runKeyed', () => {
  it('runs writes with different keys at the same time, and those sharing a key in order', async () => {
    const log: string[] = [];
    const a = gated(log, 'a', ['x']);
    const b = gated(log, 'b', ['y']);
    const c = gated(log, 'c', ['y', 'z']);
    const done = runKeyed([a.write, b.write, c.write]);
    await turns();
    expect(log).toEqual(['start a', 'start b']);
    b.release();
    await turns();
    expect(log).toEqual(['start a', 'start b', 'end b', 'start c']);
    c.release();
    a.release();
    expect((await done).map((r) => r.status === 'fulfilled' && r.value)).toEqual(['a', 'b', 'c']);
  });

  it('keeps a write without keys between everything before it and everything after it', async () => {
    const log: string[] = [];
    const a = gated(log, 'a', ['x']);
    const barrier = gated(log, 'barrier');
    const b = gated(log, 'b', ['y']);
    const done = runKeyed([a.write, barrier.write, b.write]);
    await turns();
    expect(log).toEqual(['start a']);
    a.release();
    await turns();
    expect(log).toEqual(['start a', 'end a', 'start barrier']);
    barrier.release();
    await turns();
    expect(log.slice(-2)).toEqual(['end barrier', 'start b']);
    b.release();
    await done;
  });

  it('does not run a write whose predecessor failed, and settles only once every write has', async () => {
    const log: string[] = [];
    const slow = gated(log, 'slow', ['y']);
    const failing: KeyedWork<string> = {
      keys: ['x'],
      work: () => Promise.reject(new Error('refused')),
    };
    const next = gated(log, 'next', ['x']);
    let settled = false;
    const done = runKeyed([failing, slow.write, next.write]).then((results) => {
      settled = true;
      return results;
    });
    await turns();
    expect(settled).toBe(false);
    slow.release();
    const results = await done;
    expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled', 'rejected']);
    expect(log).toEqual(['start slow', 'end slow']);
  });

  it('runs the write after a failed one when the writes are independent (each its own transaction)', async () => {
    const log: string[] = [];
    const failing: KeyedWork<string> = {
      keys: ['x'],
      work: () => Promise.reject(new Error('refused')),
    };
    const next = gated(log, 'next', ['x']);
    const done = runKeyed([failing, next.write], true);
    await turns();
    expect(log).toEqual(['start next']);
    next.release();
    expect((await done).map((r) => r.status)).toEqual(['rejected', 'fulfilled']);
  });
});

describe('overlaps', () => {
  it('tells a batch with two keyed writes between barriers from one that runs in order', () => {
    expect(overlaps([{ keys: ['x'] }, { keys: ['y'] }])).toBe(true);
    expect(overlaps([{ keys: ['x'] }, {}, { keys: ['y'] }])).toBe(false);
    expect(overlaps([{}, {}])).toBe(false);
  });
});
