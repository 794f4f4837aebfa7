import type { DataSource } from 'typeorm';
import { STORES } from '@tps/testing';
import { openPortStore, type PortStore } from '../testing/port-store';
import { portsOf } from '.';

describe.each(STORES)('TransactionCounts on %s', (kind) => {
  let opened: PortStore;
  let reads: DataSource;

  beforeAll(async () => {
    opened = await openPortStore(
      kind,
      'counts',
      'CREATE TABLE transactions (id varchar(36) PRIMARY KEY, merchant_id varchar(64) NOT NULL, created_at_ms bigint NOT NULL)',
    );
    reads = opened.reads;
    const rows: Array<[string, string, number]> = [
      ['t1', 'm1', 999],
      ['t2', 'm1', 1000],
      ['t3', 'm1', 1999],
      ['t4', 'm1', 2000],
      ['t5', 'm2', 1500],
    ];
    for (const row of rows)
      await opened.store.execute(
        'counts',
        'INSERT INTO transactions (id, merchant_id, created_at_ms) VALUES (?, ?, ?)',
        row,
      );
  });

  afterAll(() => opened.close());

  it("counts the merchant's transactions dated from the start to before the end, as a number", async () => {
    const counts = portsOf(reads).transactionCounts(reads);
    expect(await counts.createdBetween('m1', 1000, 2000)).toBe(2);
    expect(await counts.createdBetween('m3', 0, 5000)).toBe(0);
  });
});
