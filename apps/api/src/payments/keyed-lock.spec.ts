import { KeyedLock } from './keyed-lock';

describe('KeyedLock', () => {
  it('runs work of one key one at a time, in arrival order, even when one fails', async () => {
    const lock = new KeyedLock();
    const log: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const first = lock.run('a', async () => {
      log.push('a1 start');
      await gate;
      log.push('a1 end');
      throw new Error('a1 failed');
    });
    const second = lock.run('a', async () => {
      log.push('a2');
      return 2;
    });
    const other = lock.run('b', async () => {
      log.push('b1');
      return 'b';
    });
    await expect(other).resolves.toBe('b');
    expect(log).toEqual(['a1 start', 'b1']);
    release();
    await expect(first).rejects.toThrow('a1 failed');
    await expect(second).resolves.toBe(2);
    expect(log).toEqual(['a1 start', 'b1', 'a1 end', 'a2']);
  });
});
