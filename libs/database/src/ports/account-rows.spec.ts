import { STORES, type TestStore } from '@tps/testing';
import { sqlOf } from '../sql';
import { openPortStore, type PortStore } from '../testing/port-store';
import { portsOf } from '.';

/** The tables the merchant's activity is in, as their migrations name the columns it reads. */
const TABLES = [
  'CREATE TABLE webhook_deliveries (id varchar(36) PRIMARY KEY, merchant_id varchar(64) NOT NULL)',
  'CREATE TABLE webhook_delivery_attempts (id varchar(36) PRIMARY KEY, delivery_id varchar(36) NOT NULL)',
  'CREATE TABLE transactions (id varchar(36) PRIMARY KEY, merchant_id varchar(64) NOT NULL)',
  'CREATE TABLE transaction_events (id varchar(36) PRIMARY KEY, transaction_id varchar(36) NOT NULL)',
  'CREATE TABLE print_jobs (id varchar(36) PRIMARY KEY, merchant_id varchar(64) NOT NULL)',
  'CREATE TABLE merchants (merchant_id varchar(64) PRIMARY KEY)',
];

describe.each(STORES)('AccountRows on %s', (kind) => {
  let opened: PortStore;
  let store: TestStore;

  beforeAll(async () => {
    const [first, ...rest] = TABLES;
    opened = await openPortStore(kind, 'accounts', first);
    store = opened.store;
    for (const table of rest) await store.execute('accounts', table);
    for (const merchant of ['m1', 'm2']) {
      const rows: Array<[string, string[]]> = [
        ['webhook_deliveries (id, merchant_id)', [`${merchant}-d`, merchant]],
        ['webhook_delivery_attempts (id, delivery_id)', [`${merchant}-a`, `${merchant}-d`]],
        ['transactions (id, merchant_id)', [`${merchant}-t`, merchant]],
        ['transaction_events (id, transaction_id)', [`${merchant}-e`, `${merchant}-t`]],
        ['print_jobs (id, merchant_id)', [`${merchant}-p`, merchant]],
      ];
      for (const [into, values] of rows)
        await store.execute('accounts', `INSERT INTO ${into} VALUES (?, ?)`, values);
      await store.execute('accounts', 'INSERT INTO merchants (merchant_id) VALUES (?)', [merchant]);
    }
  });

  afterAll(() => opened.close());

  it('holds a stored merchant in the write it is given, and finds none for an unknown one', async () => {
    const rows = portsOf(opened.reads).accountRows();
    const held = await opened.writer.write(async (manager) => [
      await rows.holdMerchant(manager, 'm2'),
      await rows.holdMerchant(manager, 'nobody'),
    ]);
    expect(held).toEqual([true, false]);
  });

  it("erases what the merchant did, in the write it is given, and no other merchant's", async () => {
    const rows = portsOf(opened.reads).accountRows();
    await opened.writer.write((manager) => rows.eraseActivity(manager, 'm1'));
    for (const table of [
      'webhook_deliveries',
      'webhook_delivery_attempts',
      'transactions',
      'transaction_events',
      'print_jobs',
    ]) {
      const ids = await sqlOf(opened.reads.manager).all<{ id: string }>(
        `SELECT id FROM ${table} ORDER BY id`,
        [],
      );
      expect([table, ids.map((row) => row.id)]).toEqual([table, [expect.stringMatching(/^m2-/)]]);
    }
  });
});
