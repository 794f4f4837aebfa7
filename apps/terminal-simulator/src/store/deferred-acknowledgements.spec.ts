import { ACK_WRITE_MS, DeferredAcknowledgements } from './deferred-acknowledgements';

describe('DeferredAcknowledgements', () => {
  let writes: Array<[number[], string[]]>;
  let failing: boolean;
  let acknowledgements: DeferredAcknowledgements;

  beforeEach(() => {
    jest.useFakeTimers();
    writes = [];
    failing = false;
    acknowledgements = new DeferredAcknowledgements((seqs, eventIds) => {
      if (failing) return Promise.reject(new Error('disk full'));
      writes.push([seqs, eventIds]);
      return Promise.resolve();
    });
  });

  afterEach(() => {
    acknowledgements.stop();
    jest.useRealTimers();
  });

  it('writes what came within ACK_WRITE_MS in one write, and holds it until then', async () => {
    acknowledgements.add([1, 2], []);
    acknowledgements.add([], ['e-9']);
    expect(acknowledgements.holds(2, 'other')).toBe(true);
    expect(acknowledgements.holds(7, 'e-9')).toBe(true);
    expect(acknowledgements.holds(7, 'e-8')).toBe(false);
    await jest.advanceTimersByTimeAsync(ACK_WRITE_MS - 1);
    expect(writes).toEqual([]);
    await jest.advanceTimersByTimeAsync(1);
    expect(writes).toEqual([[[1, 2], ['e-9']]]);
    expect(acknowledgements.size).toBe(0);
    await jest.advanceTimersByTimeAsync(10 * ACK_WRITE_MS);
    expect(writes).toHaveLength(1);
  });

  it('keeps them through a failed write, and writes them at the next', async () => {
    failing = true;
    acknowledgements.add([1], []);
    await jest.advanceTimersByTimeAsync(ACK_WRITE_MS);
    expect(acknowledgements.holds(1, '')).toBe(true);
    await expect(acknowledgements.writeNow()).rejects.toThrow('disk full');
    failing = false;
    acknowledgements.add([2], []);
    await jest.advanceTimersByTimeAsync(ACK_WRITE_MS);
    expect(writes).toEqual([[[1, 2], []]]);
    expect(acknowledgements.holds(1, '')).toBe(false);
  });

  it('once stopped, writes only when told to', async () => {
    acknowledgements.add([1], []);
    acknowledgements.stop();
    await jest.advanceTimersByTimeAsync(10 * ACK_WRITE_MS);
    expect(writes).toEqual([]);
    await acknowledgements.writeNow();
    expect(writes).toEqual([[[1], []]]);
  });
});
