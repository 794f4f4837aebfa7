import { GroupCommit } from './group-commit';

/** A writer whose transactions begin only when the test lets them, one per `open`, in turn. */
function gatedWriter() {
  const batches: string[][] = [];
  const waiting: Array<() => void> = [];
  let permits = 0;
  let failNext = false;
  const begin = (): Promise<void> =>
    new Promise<void>((resolve) => {
      if (permits > 0) {
        permits -= 1;
        resolve();
      } else waiting.push(resolve);
    });
  const write = (take: () => string[]): Promise<void> =>
    begin().then(() => {
      if (failNext) {
        failNext = false;
        throw new Error('could not begin');
      }
      batches.push([...take()]);
    });
  return {
    batches,
    write,
    open: () => {
      const next = waiting.shift();
      if (next === undefined) permits += 1;
      else next();
    },
    failNextBegin: () => (failNext = true),
  };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('GroupCommit', () => {
  it('writes together the items that arrive while a write waits, and later ones in the next', async () => {
    const writer = gatedWriter();
    const commit = new GroupCommit<string>(writer.write);
    const first = [commit.add('a'), commit.add('b'), commit.add('c')];
    writer.open();
    await Promise.all(first);
    const second = [commit.add('d'), commit.add('e')];
    writer.open();
    await Promise.all(second);
    expect(writer.batches).toEqual([
      ['a', 'b', 'c'],
      ['d', 'e'],
    ]);
  });

  it('sends an item added after its batch began to the next write', async () => {
    const batches: string[][] = [];
    const late: Array<Promise<void>> = [];
    const commit: GroupCommit<string> = new GroupCommit<string>(async (take) => {
      await tick(); // the transaction begins later
      const items = take();
      if (batches.length === 0) late.push(commit.add('late'));
      batches.push([...items]);
    });
    await commit.add('early');
    await Promise.all(late);
    expect(batches).toEqual([['early'], ['late']]);
  });

  it('fails every caller of a batch whose write could not begin, and writes later items anew', async () => {
    const writer = gatedWriter();
    const commit = new GroupCommit<string>(writer.write);
    writer.failNextBegin();
    const failed = [commit.add('a'), commit.add('b')];
    writer.open();
    await expect(Promise.all(failed)).rejects.toThrow('could not begin');
    await tick();
    const next = commit.add('c');
    writer.open();
    await next;
    expect(writer.batches).toEqual([['c']]);
  });

  it('holds the next write until the one under way has ended, even when its transaction has begun', async () => {
    const begun: string[][] = [];
    let end: () => void = () => undefined;
    const commit = new GroupCommit<string>(async (take) => {
      begun.push([...take()]);
      if (begun.length === 1) await new Promise<void>((resolve) => (end = resolve));
    });
    const first = commit.add('a');
    await tick();
    const later = [commit.add('b'), commit.add('c')];
    await tick();
    // Side by side, 'b' would have begun its own write by now.
    expect(begun).toEqual([['a']]);
    end();
    await Promise.all([first, ...later]);
    expect(begun).toEqual([['a'], ['b', 'c']]);
  });
});
