import { Column, Entity, PrimaryColumn, type DataSource } from 'typeorm';
import { STORES } from '@tps/testing';
import { EntityTable } from '../entity-table';
import { openPortStore, type PortStore } from '../testing/port-store';
import { portsOf, type TransactionQuery } from '.';

/** A bigint as the API's entities read it: a number on both stores. */
const MILLISECONDS = { to: (value: number) => value, from: (value: string | number) => Number(value) };

@Entity('transactions')
class Searched {
  @PrimaryColumn({ type: 'varchar' }) id!: string;
  @Column({ name: 'merchant_id', type: 'varchar' }) merchantId!: string;
  @Column({ type: 'varchar', nullable: true }) status!: string | null;
  @Column({ name: 'terminal_serial', type: 'varchar' }) terminalSerial!: string;
  @Column({ name: 'created_at_ms', type: 'bigint', transformer: MILLISECONDS }) createdAtMs!: number;
}

describe.each(STORES)('TransactionSearch on %s', (kind) => {
  let opened: PortStore;
  let reads: DataSource;

  beforeAll(async () => {
    opened = await openPortStore(
      kind,
      'search',
      'CREATE TABLE transactions (id varchar(36) PRIMARY KEY, merchant_id varchar(64) NOT NULL, ' +
        'status varchar(24), terminal_serial varchar(32) NOT NULL, created_at_ms bigint NOT NULL)',
      [Searched],
    );
    reads = opened.reads;
    const rows: Array<[string, string, string | null, string, number]> = [
      ['a', 'm1', 'APPROVED', 'S1', 1000],
      ['b', 'm1', 'DECLINED', 'S2', 2000],
      ['c', 'm1', 'APPROVED', 'S1', 2000],
      ['d', 'm1', null, 'S1', 3000],
      ['e', 'm1', 'APPROVED', 'S2', 4000],
      ['f', 'm2', 'APPROVED', 'S1', 2500],
    ];
    for (const row of rows)
      await opened.store.execute(
        'search',
        'INSERT INTO transactions (id, merchant_id, status, terminal_serial, created_at_ms) VALUES (?, ?, ?, ?, ?)',
        row,
      );
  });

  afterAll(() => opened.close());

  const page = async (query: Partial<TransactionQuery<Searched>>): Promise<string[]> => {
    const search = portsOf(reads).transactionSearch(reads, new EntityTable(reads, Searched));
    const found = await search.page({ merchantId: 'm1', equal: [], take: 10, ...query });
    return found.map((row) => row.id);
  };

  it("pages the merchant's acknowledged transactions newest first, then by id, as entities", async () => {
    expect(await page({})).toEqual(['e', 'c', 'b', 'a']);
    const search = portsOf(reads).transactionSearch(reads, new EntityTable(reads, Searched));
    const [first] = await search.page({ merchantId: 'm1', equal: [], take: 1 });
    expect(first).toBeInstanceOf(Searched);
    expect(first).toEqual({
      id: 'e',
      merchantId: 'm1',
      status: 'APPROVED',
      terminalSerial: 'S2',
      createdAtMs: 4000,
    });
  });

  it('takes the filters, bounds inclusive, and goes on after a position', async () => {
    expect(await page({ equal: [['status', 'APPROVED']] })).toEqual(['e', 'c', 'a']);
    expect(
      await page({
        equal: [
          ['status', 'APPROVED'],
          ['terminalSerial', 'S1'],
        ],
      }),
    ).toEqual(['c', 'a']);
    expect(await page({ fromMs: 2000, toMs: 4000 })).toEqual(['e', 'c', 'b']);
    expect(await page({ after: { atMs: 2000, id: 'c' } })).toEqual(['b', 'a']);
    expect(await page({ after: { atMs: 4000, id: 'e' }, take: 2 })).toEqual(['c', 'b']);
  });
});
