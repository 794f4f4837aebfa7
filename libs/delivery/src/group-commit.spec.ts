import { GroupCommit } from './group-commit';

/** A writer whose transactions begin only when the test lets them. */
function gatedWriter() {
  const batches: string[][] = [];
  const gates: Array<() => void> = [];
  let failNext = false;
  const write = (take: () => string[]): Promise<void> =>
    new Promise<void>((resolve) => gates.push(resolve)).then(() => {
      if (failNext) {
        failNext = false;
        throw new Error('could not begin');
      }
      batches.push([...take()]);
    });
  return {
    batches,
    write,
    open: () => gates.shift()?.(),
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
});
