import { SharedWindowLimiter, type AdmissionExchange, type BucketCount } from './shared-window-limiter';

/** rate_limit_counts in memory: what each replica told, per key and bucket. */
class MemoryExchange implements AdmissionExchange {
  readonly rows: Array<BucketCount & { replica: string }> = [];
  failing = false;

  exchange(replica: string, added: BucketCount[], fromBucket: number): Promise<Map<string, number>> {
    if (this.failing) return Promise.reject(new Error('database down'));
    this.rows.push(...added.map((count) => ({ ...count, replica })));
    const others = new Map<string, number>();
    for (const row of this.rows) {
      if (row.replica === replica || row.bucket < fromBucket) continue;
      others.set(row.key, (others.get(row.key) ?? 0) + row.admitted);
    }
    return Promise.resolve(others);
  }
}

function replicas(exchange: MemoryExchange, clock: { now: number }, limit = 10, windowMs = 60_000) {
  const make = (replica: string): SharedWindowLimiter =>
    new SharedWindowLimiter(limit, windowMs, { exchange, replica, syncMs: 100 }, () => clock.now);
  return [make('a'), make('b')];
}

function admitted(limiter: SharedWindowLimiter, key: string, times: number): number {
  let count = 0;
  for (let i = 0; i < times; i++) if (limiter.take(key).admitted) count += 1;
  return count;
}

describe('SharedWindowLimiter', () => {
  it('holds one limit between replicas once they have exchanged their counts', async () => {
    const exchange = new MemoryExchange();
    const clock = { now: 1_000_000 };
    const [a, b] = replicas(exchange, clock);
    expect(admitted(a, 'm', 6)).toBe(6);
    await a.sync();
    await b.sync();
    expect(admitted(b, 'm', 10)).toBe(4);
    expect(admitted(b, 'other', 10)).toBe(10);
    await Promise.all([a.stop(), b.stop()]);
  });

  it("refuses with the whole window to wait when only the others' admissions fill it", async () => {
    const exchange = new MemoryExchange();
    const clock = { now: 1_000_000 };
    const [a, b] = replicas(exchange, clock, 2, 30_000);
    admitted(a, 'm', 2);
    await a.sync();
    await b.sync();
    expect(b.take('m')).toEqual({ admitted: false, retryAfterSeconds: 30 });
    await Promise.all([a.stop(), b.stop()]);
  });

  it("forgets the others' admissions once their window has passed", async () => {
    const exchange = new MemoryExchange();
    const clock = { now: 1_000_000 };
    const [a, b] = replicas(exchange, clock);
    admitted(a, 'm', 10);
    await a.sync();
    await b.sync();
    expect(admitted(b, 'm', 1)).toBe(0);
    clock.now += 60_000 + 6000;
    await b.sync();
    expect(admitted(b, 'm', 10)).toBe(10);
    await Promise.all([a.stop(), b.stop()]);
  });

  it('keeps the counts of a failed exchange for the next one, and admits meanwhile', async () => {
    const exchange = new MemoryExchange();
    const clock = { now: 1_000_000 };
    const [a, b] = replicas(exchange, clock);
    exchange.failing = true;
    expect(admitted(a, 'm', 7)).toBe(7);
    await a.sync();
    exchange.failing = false;
    await a.sync();
    await b.sync();
    expect(admitted(b, 'm', 10)).toBe(3);
    await Promise.all([a.stop(), b.stop()]);
  });

  it('takes exactly: one exchange before it decides', async () => {
    const exchange = new MemoryExchange();
    const clock = { now: 1_000_000 };
    const [a, b] = replicas(exchange, clock, 3);
    expect(await a.takeExact('address')).toEqual({ admitted: true });
    expect(await a.takeExact('address')).toEqual({ admitted: true });
    await a.sync();
    expect(await b.takeExact('address')).toEqual({ admitted: true });
    expect((await b.takeExact('address')).admitted).toBe(false);
    await Promise.all([a.stop(), b.stop()]);
  });
});
