import { MinHeap } from './min-heap';

describe('MinHeap', () => {
  it('gives items back smallest first, whatever the order they came in', () => {
    const values = Array.from({ length: 500 }, (_v, i) => (i * 7919) % 503);
    const heap = new MinHeap<number>((n) => n);
    for (const value of values) heap.push(value);
    expect(heap.size).toBe(500);
    const out: number[] = [];
    while (heap.size > 0) out.push(heap.pop()!);
    expect(out).toEqual([...values].sort((a, b) => a - b));
    expect(heap.pop()).toBeUndefined();
    expect(heap.peek()).toBeUndefined();
  });

  it('keeps equal keys and interleaved pushes and pops in order', () => {
    const heap = new MinHeap<{ at: number; id: string }>((item) => item.at);
    heap.push({ at: 5, id: 'a' });
    heap.push({ at: 1, id: 'b' });
    expect(heap.pop()?.id).toBe('b');
    heap.push({ at: 3, id: 'c' });
    heap.push({ at: 5, id: 'd' });
    expect(heap.peek()?.id).toBe('c');
    expect([heap.pop()?.at, heap.pop()?.at, heap.pop()?.at]).toEqual([3, 5, 5]);
  });
});
