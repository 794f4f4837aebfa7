import { BatchedLookup } from './batched-lookup';

/** A store whose reads are answered only when the spec says so. */
class HeldReads {
  readonly reads: string[][] = [];
  private readonly waiting: Array<() => void> = [];
  failNext = false;

  readMany = (keys: string[]): Promise<Map<string, string>> => {
    this.reads.push(keys);
    const fail = this.failNext;
    this.failNext = false;
    return new Promise((resolve, reject) =>
      this.waiting.push(() =>
        fail
          ? reject(new Error('the store is away'))
          : resolve(new Map(keys.filter((k) => k !== 'missing').map((k) => [k, `value of ${k}`]))),
      ),
    );
  };

  async answer(): Promise<void> {
    for (const settle of this.waiting.splice(0)) settle();
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('BatchedLookup', () => {
  it('reads the keys asked for while a read is under way together, in one read', async () => {
    const store = new HeldReads();
    const lookup = new BatchedLookup(store.readMany);
    const first = lookup.get('a');
    const rest = ['b', 'c', 'b', 'missing'].map((key) => lookup.get(key));
    expect(store.reads).toEqual([['a']]);
    await store.answer();
    expect(store.reads).toEqual([['a'], ['b', 'c', 'missing']]);
    await store.answer();
    await expect(first).resolves.toBe('value of a');
    await expect(Promise.all(rest)).resolves.toEqual(['value of b', 'value of c', 'value of b', undefined]);
  });

  it('fails the askers of a read that failed, and reads again for those who ask next', async () => {
    const store = new HeldReads();
    const lookup = new BatchedLookup(store.readMany);
    store.failNext = true;
    const failed = expect(lookup.get('a')).rejects.toThrow('the store is away');
    await store.answer();
    await failed;
    const again = lookup.get('a');
    await store.answer();
    await expect(again).resolves.toBe('value of a');
  });
});
