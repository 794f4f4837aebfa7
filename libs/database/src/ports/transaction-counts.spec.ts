import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import { STORES, TestStore } from '@tps/testing';
import { closeDataSource } from '../close-data-source';
import { dataSourceOptions } from '../data-source-options';
import { openDataSource } from '../open-data-source';
import { portsOf } from '.';

describe.each(STORES)('TransactionCounts on %s', (kind) => {
  let dir: string;
  let store: TestStore;
  let reads: DataSource;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tps-transaction-counts-'));
    store = new TestStore(kind, dir);
    reads = await openDataSource(
      dataSourceOptions({ url: await store.url('counts'), entities: [], migrations: [] }),
    );
    await reads.query(
      'CREATE TABLE transactions (id varchar(36) PRIMARY KEY, merchant_id varchar(64) NOT NULL, created_at_ms bigint NOT NULL)',
    );
    const rows: Array<[string, string, number]> = [
      ['t1', 'm1', 999],
      ['t2', 'm1', 1000],
      ['t3', 'm1', 1999],
      ['t4', 'm1', 2000],
      ['t5', 'm2', 1500],
    ];
    for (const row of rows)
      await store.execute(
        'counts',
        'INSERT INTO transactions (id, merchant_id, created_at_ms) VALUES (?, ?, ?)',
        row,
      );
  });

  afterAll(async () => {
    await closeDataSource(reads);
    await store.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("counts the merchant's transactions dated from the start to before the end, as a number", async () => {
    const counts = portsOf(reads).transactionCounts(reads);
    expect(await counts.createdBetween('m1', 1000, 2000)).toBe(2);
    expect(await counts.createdBetween('m3', 0, 5000)).toBe(0);
  });
});
