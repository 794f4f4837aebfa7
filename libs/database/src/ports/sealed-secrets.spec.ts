import type { DataSource } from 'typeorm';
import { STORES } from '@tps/testing';
import { openPortStore, type PortStore } from '../testing/port-store';
import { portsOf } from '.';
import type { SealedSecrets } from './sealed-secrets';

describe.each(STORES)('SealedSecrets on %s', (kind) => {
  let opened: PortStore;
  let reads: DataSource;
  let secrets: SealedSecrets;

  beforeAll(async () => {
    opened = await openPortStore(
      kind,
      'sealed',
      'CREATE TABLE vault (id varchar(16) PRIMARY KEY, a varchar(64) NOT NULL, b varchar(64))',
    );
    reads = opened.reads;
    secrets = portsOf(reads).sealedSecrets(reads, opened.writer, {
      table: 'vault',
      key: 'id',
      columns: ['a', 'b'],
    });
  });

  afterAll(() => opened.close());

  beforeEach(async () => {
    await reads.query('DELETE FROM vault');
    const rows: Array<[string, string, string | null]> = [
      ['m1', 'v1:k1:x', null],
      ['m2', 'v1:k2:x', 'v1:k1:y'],
      ['m3', 'clear', 'v1:k3:y'],
      ['m4', 'v1:k1:z', 'v1:k1:w'],
      ['m5', 'V1:k9:upper', null],
    ];
    for (const row of rows)
      await opened.store.execute('sealed', 'INSERT INTO vault (id, a, b) VALUES (?, ?, ?)', row);
  });

  it('pages the rows with a value not beginning with a prefix, by key; a null column is no such value', async () => {
    const first = await secrets.notBeginningWith('v1:k1:', '', 2);
    expect(first).toEqual([
      { key: 'm2', values: { a: 'v1:k2:x', b: 'v1:k1:y' } },
      { key: 'm3', values: { a: 'clear', b: 'v1:k3:y' } },
    ]);
    expect((await secrets.notBeginningWith('v1:k1:', 'm3', 2)).map((row) => row.key)).toEqual(['m5']);
  });

  it('replaces only the values still as read, and counts them', async () => {
    const replaced = await secrets.replace([
      { key: 'm2', column: 'a', from: 'v1:k2:x', to: 'v1:k1:x' },
      { key: 'm3', column: 'b', from: 'changed meanwhile', to: 'v1:k1:y' },
    ]);
    expect(replaced).toBe(1);
    expect(
      await opened.store.rows('sealed', 'SELECT id, a, b FROM vault WHERE id IN (?, ?) ORDER BY id', [
        'm2',
        'm3',
      ]),
    ).toEqual([
      { id: 'm2', a: 'v1:k1:x', b: 'v1:k1:y' },
      { id: 'm3', a: 'clear', b: 'v1:k3:y' },
    ]);
  });

  it('finds a sealed value outside the given prefixes (case counts), and counts the rows under one', async () => {
    const outside = await secrets.oneOutside('v1:', ['v1:k1:', 'v1:k2:']);
    expect(outside).toBe('v1:k3:y');
    expect(await secrets.oneOutside('v1:', ['v1:k1:', 'v1:k2:', 'v1:k3:'])).toBeUndefined();
    expect(await secrets.countBeginningWith('v1:k1:')).toBe(3);
    expect(await secrets.countBeginningWith('v1:k7:')).toBe(0);
  });
});
