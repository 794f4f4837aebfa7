import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { STORES, TestStore } from '@tps/testing';
import { closeDataSource } from '../close-data-source';
import { dataSourceOptions } from '../data-source-options';
import { SerialWriter } from '../serial-writer';
import { sqlOf } from '../sql';
import { LeasedQueue, type LeaseHolder, type LeasedTable } from './leased-queue';

const T0 = Date.parse('2026-11-29T12:00:00.000Z');
const iso = (ms: number): string => new Date(ms).toISOString();
const LEASE_MS = 30_000;

const holder = (replica: string, instance: string): LeaseHolder => ({
  id: `${replica}/${instance}`,
  replica: `${replica}/`,
  leaseMs: LEASE_MS,
  unleasedAfterMs: 40_000,
});

function table(unleased: LeasedTable['unleased']): LeasedTable {
  return {
    table: 'jobs',
    id: 'id',
    owner: 'owner',
    leaseUntil: 'until_at',
    epoch: 'epoch',
    pending: "{row}.state = 'pending'",
    order: 'due',
    queue: { key: 'k', position: 'pos' },
    unleased,
  };
}

/**
 * The leased queue's contract, with two processes simulated by two holders on one database (a
 * SQLite file, a PostgreSQL database of its own): each row held by one at a time, only the head of
 * each key's queue claimed, a lease that ended taken over, rows given back taken at once.
 */
describe.each(STORES)('LeasedQueue on %s', (store) => {
  let dir: string;
  let stores: TestStore;
  let dataSource: DataSource;
  let writer: SerialWriter;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tps-leased-queue-'));
    stores = new TestStore(store, dir);
    dataSource = new DataSource(
      dataSourceOptions({ url: await stores.url('queue'), entities: [], migrations: [] }),
    );
    await dataSource.initialize();
    writer = new SerialWriter(dataSource);
  });

  beforeEach(async () => {
    for (const name of ['jobs', 'slots', 'named']) await dataSource.query(`DROP TABLE IF EXISTS ${name}`);
    await dataSource.query(
      'CREATE TABLE jobs (id varchar(40) PRIMARY KEY, k varchar(40), pos integer, state varchar(20), ' +
        'owner varchar(128), until_at varchar(30), due varchar(30), epoch integer NOT NULL DEFAULT 0, ' +
        // Whose row it is and where it goes: the shares a claim may interleave by.
        'merchant varchar(40), destination varchar(40))',
    );
    // A key's slots (one row each, free when nobody holds it), and named rows leased in epoch ms
    // whose holder is never NULL: the shapes of the destinations' slots and the maintenance leases.
    await dataSource.query(
      'CREATE TABLE slots (k varchar(40), slot integer, owner varchar(128), until_at varchar(30), PRIMARY KEY (k, slot))',
    );
    await dataSource.query(
      "CREATE TABLE named (name varchar(40) PRIMARY KEY, holder varchar(128) NOT NULL DEFAULT '', until_ms bigint NOT NULL DEFAULT 0)",
    );
  });

  afterAll(async () => {
    await closeDataSource(dataSource);
    await stores.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  async function insert(
    id: string,
    k: string,
    pos: number,
    lease?: { owner: string | null; until: number },
    of: { merchant: string; destination: string } = { merchant: 'm', destination: 'd' },
  ) {
    await dataSource.query(
      `INSERT INTO jobs (id, k, pos, state, owner, until_at, due, merchant, destination) VALUES (${[
        1, 2, 3, 4, 5, 6, 7, 8, 9,
      ]
        .map((n) => (store === 'postgres' ? `$${n}` : '?'))
        .join(', ')})`,
      [
        id,
        k,
        pos,
        'pending',
        lease?.owner ?? null,
        lease === undefined ? null : iso(lease.until),
        iso(T0 + pos),
        of.merchant,
        of.destination,
      ],
    );
  }

  const ids = (rows: Array<{ id: string }>): string[] => rows.map((row) => row.id).sort();

  it('hands each row to one holder at a time, only the head of each queue, and takes over a lease that ended', async () => {
    const spec = table({ due: '{row}.due' });
    const a = new LeasedQueue(spec, writer, dataSource, holder('replica-a', '1'));
    const b = new LeasedQueue(spec, writer, dataSource, holder('replica-b', '1'));
    const given = { owner: null, until: 0 };
    await insert('x1', 'x', 1, given);
    await insert('x2', 'x', 2, given);
    await insert('y1', 'y', 1, given);

    const byA = await a.claim<{ id: string }>(T0, T0 + LEASE_MS, 10, 'id');
    expect(ids(byA)).toEqual(['x1', 'y1']);
    // Held by a live lease, and x2 waits behind x1 whoever holds it.
    expect(await b.claim(T0, T0 + LEASE_MS, 10, 'id')).toEqual([]);
    expect((await a.renew(T0 + LEASE_MS)).sort()).toEqual(['x1', 'y1']);

    // a's leases end unrenewed: b takes them, and a holds them no more.
    const later = T0 + 2 * LEASE_MS;
    expect(ids(await b.claim<{ id: string }>(later, later + LEASE_MS, 10, 'id'))).toEqual(['x1', 'y1']);
    expect(await a.renew(later + LEASE_MS)).toEqual([]);

    // b gives everything back: a claims it at once.
    await b.release();
    expect(ids(await a.claim<{ id: string }>(later, later + LEASE_MS, 10, 'id'))).toEqual(['x1', 'y1']);
  });

  it('interleaves a claim by its shares: a backlog of one merchant keeps no other merchant’s row, nor its own other destination’s, out of a claim', async () => {
    const spec = { ...table({ due: '{row}.due' }), share: ['{row}.merchant', '{row}.destination'] };
    const a = new LeasedQueue(spec, writer, dataSource, holder('replica-a', '1'));
    const b = new LeasedQueue(spec, writer, dataSource, holder('replica-b', '1'));
    const given = { owner: null, until: 0 };
    // The busy merchant's backlog, every row due before the quiet merchant's one: ten to one
    // destination, then two to another.
    for (let i = 1; i <= 10; i += 1)
      await insert(`busy-d1-${i}`, `t${i}`, i, given, { merchant: 'busy', destination: 'd1' });
    for (let i = 11; i <= 12; i += 1)
      await insert(`busy-d2-${i}`, `t${i}`, i, given, { merchant: 'busy', destination: 'd2' });
    await insert('quiet', 'q', 100, given, { merchant: 'quiet', destination: 'd1' });

    // The head of each merchant's backlog first, and within the busy one the head of each destination.
    expect(ids(await a.claim<{ id: string }>(T0, T0 + LEASE_MS, 3, 'id'))).toEqual([
      'busy-d1-1',
      'busy-d2-11',
      'quiet',
    ]);
    // The other holder goes on where that claim ended, among the rows nobody holds.
    expect(ids(await b.claim<{ id: string }>(T0, T0 + LEASE_MS, 3, 'id'))).toEqual(
      ['busy-d1-2', 'busy-d2-12', 'busy-d1-3'].sort(),
    );
    // Without shares, the same rows go in the table's order alone: the quiet merchant's last.
    await a.release();
    await b.release();
    const plain = new LeasedQueue(table({ due: '{row}.due' }), writer, dataSource, holder('replica-c', '1'));
    expect(await plain.claim<{ id: string }>(T0, T0 + LEASE_MS, 12, 'id')).not.toContainEqual({
      id: 'quiet',
    });
    expect(await plain.claim<{ id: string }>(T0, T0 + LEASE_MS, 12, 'id')).toEqual([{ id: 'quiet' }]);
  });

  it('hands each row of a shared claim to one holder, with claims of both holders at once', async () => {
    const spec = { ...table({ due: '{row}.due' }), share: ['{row}.merchant', '{row}.destination'] };
    const a = new LeasedQueue(spec, writer, dataSource, holder('replica-a', '1'));
    const b = new LeasedQueue(spec, writer, dataSource, holder('replica-b', '1'));
    const given = { owner: null, until: 0 };
    for (let i = 0; i < 120; i += 1) {
      await insert(`r${i}`, `t${i}`, i, given, { merchant: `m${i % 4}`, destination: `d${i % 3}` });
    }
    // Rounds of claims made together (on PostgreSQL, each on a connection of its own), until none is left.
    const claimed: string[] = [];
    for (;;) {
      const round = await Promise.all(
        [a, b, a, b].map((queue) => queue.claim<{ id: string }>(T0, T0 + LEASE_MS, 7, 'id')),
      );
      const taken = round.flat().map((row) => row.id);
      if (taken.length === 0) break;
      claimed.push(...taken);
    }
    expect(claimed).toHaveLength(120);
    expect(new Set(claimed).size).toBe(120);
  });

  describe('with a cap per merchant', () => {
    const CAP = 3;
    const capped = (): LeasedTable => ({
      ...table({ due: '{row}.due' }),
      share: ['{row}.merchant', '{row}.destination'],
      shareCap: CAP,
    });
    const given = { owner: null, until: 0 };
    /** The merchant's pending rows leased to an owner whose lease has not ended at `now`. */
    const heldOf = async (merchant: string, now: number): Promise<number> => {
      const [row] = await sqlOf(dataSource.manager).all<{ n: number | string }>(
        "SELECT COUNT(*) AS n FROM jobs WHERE merchant = ? AND state = 'pending' AND owner IS NOT NULL AND until_at >= ?",
        [merchant, iso(now)],
      );
      return Number(row.n);
    };

    it('tops a merchant up to its cap across both holders, counting the rows leased at insert, and no further while they hold them', async () => {
      const a = new LeasedQueue(capped(), writer, dataSource, holder('replica-a', '1'));
      const b = new LeasedQueue(capped(), writer, dataSource, holder('replica-b', '1'));
      // One of the busy merchant's leased to a at insert, ten given back over two destinations;
      // two of the quiet merchant's.
      await insert(
        'busy-new',
        'n',
        1,
        { owner: 'replica-a/1', until: T0 + LEASE_MS },
        { merchant: 'busy', destination: 'd1' },
      );
      for (let i = 1; i <= 10; i += 1)
        await insert(`busy-${i}`, `t${i}`, i, given, { merchant: 'busy', destination: `d${1 + (i % 2)}` });
      await insert('quiet-1', 'q1', 20, given, { merchant: 'quiet', destination: 'd1' });
      await insert('quiet-2', 'q2', 21, given, { merchant: 'quiet', destination: 'd1' });

      // a's claim is bounded by the cap less what is held: two of the busy merchant's, not ten.
      const byA = ids(await a.claim<{ id: string }>(T0, T0 + LEASE_MS, 100, 'id'));
      expect(byA).toEqual(['busy-1', 'busy-2', 'quiet-1', 'quiet-2']);
      // b finds the busy merchant at its cap: none of its rows, though eight are free.
      expect(await b.claim(T0, T0 + LEASE_MS, 100, 'id')).toEqual([]);
      expect(await heldOf('busy', T0)).toBe(CAP);

      // One of them done: one more, to b.
      await sqlOf(dataSource.manager).run("UPDATE jobs SET state = 'done' WHERE id = ?", ['busy-1']);
      expect(ids(await b.claim<{ id: string }>(T0, T0 + LEASE_MS, 100, 'id'))).toEqual(['busy-3']);
      expect(await a.claim(T0, T0 + LEASE_MS, 100, 'id')).toEqual([]);

      // a's leases end unrenewed: they no longer count, and b takes what the cap leaves, its own
      // lease renewed counting.
      const later = T0 + 2 * LEASE_MS;
      expect(await b.renew(later + LEASE_MS)).toEqual(['busy-3']);
      const byB = ids(await b.claim<{ id: string }>(later, later + LEASE_MS, 100, 'id'));
      expect(byB.filter((id) => id.startsWith('busy'))).toHaveLength(CAP - 1);
      expect(byB.filter((id) => id.startsWith('quiet'))).toEqual(['quiet-1', 'quiet-2']);
      expect(await heldOf('busy', later)).toBe(CAP);
    });

    it('holds the cap with claims of both holders at once', async () => {
      const a = new LeasedQueue(capped(), writer, dataSource, holder('replica-a', '1'));
      const b = new LeasedQueue(capped(), writer, dataSource, holder('replica-b', '1'));
      for (let i = 0; i < 80; i += 1) {
        await insert(`r${i}`, `t${i}`, i, given, { merchant: `m${i % 2}`, destination: `d${i % 5}` });
      }
      // Claims made together (on PostgreSQL, each on a connection of its own), each of which
      // alone would take a merchant's whole cap.
      const round = await Promise.all(
        [a, b, a, b, a, b].map((queue) => queue.claim<{ id: string }>(T0, T0 + LEASE_MS, 10, 'id')),
      );
      expect(round.flat()).toHaveLength(2 * CAP);
      expect([await heldOf('m0', T0), await heldOf('m1', T0)]).toEqual([CAP, CAP]);
    });
  });

  it('counts a row’s epoch up at each claim: a late result of an earlier lease of the same holder is not recorded', async () => {
    const spec = table({ due: '{row}.due' });
    const a = new LeasedQueue(spec, writer, dataSource, holder('replica-a', '1'));
    const b = new LeasedQueue(spec, writer, dataSource, holder('replica-b', '1'));
    await insert('x1', 'x', 1, { owner: null, until: 0 });
    type Claimed = { id: string; epoch: number | string };
    const [first] = await a.claim<Claimed>(T0, T0 + LEASE_MS, 10, 'id, epoch');
    // a's lease ends unrenewed; b takes the row, gives it back, and a claims it again.
    const later = T0 + 2 * LEASE_MS;
    expect(await b.claim(later, later + LEASE_MS, 10, 'id')).toHaveLength(1);
    await b.release();
    const [second] = await a.claim<Claimed>(later, later + LEASE_MS, 10, 'id, epoch');
    expect(second.id).toBe('x1');
    // A result as a holder records it: only where it is the owner, under the epoch it claimed at.
    const record = (epoch: number | string) =>
      sqlOf(dataSource.manager).run(
        "UPDATE jobs SET state = 'done' WHERE id = ? AND owner = ? AND epoch = ?",
        ['x1', 'replica-a/1', epoch],
      );
    expect(await record(first.epoch)).toBe(0);
    expect(await record(second.epoch)).toBe(1);
  });

  it('takes at start what is its own: every pending row with one process per file, else its replica predecessor’s', async () => {
    const spec = table({ due: '{row}.due' });
    await insert('mine', 'm', 1, { owner: 'replica-a/old', until: T0 + LEASE_MS });
    await insert('theirs', 't', 1, { owner: 'replica-b/1', until: T0 + LEASE_MS });
    const restarted = new LeasedQueue(spec, writer, dataSource, holder('replica-a', 'new'));
    const adopted = ids(await restarted.adopt<{ id: string }>('id'));
    expect(adopted).toEqual(store === 'postgres' ? ['mine'] : ['mine', 'theirs']);
    expect(restarted.shared).toBe(store === 'postgres');
  });

  it('takes a row written without a lease once its due time is long enough past', async () => {
    const a = new LeasedQueue(table({ due: '{row}.due' }), writer, dataSource, holder('replica-a', '1'));
    await insert('old', 'o', 1);
    expect(await a.claim(T0 + 1000, T0 + LEASE_MS, 10, 'id')).toEqual([]);
    expect(ids(await a.claim<{ id: string }>(T0 + 50_000, T0 + 90_000, 10, 'id'))).toEqual(['old']);
  });

  it('notices a row written without a lease, and takes it once the lease it was given has ended', async () => {
    const a = new LeasedQueue(table('notice'), writer, dataSource, holder('replica-a', '1'));
    await insert('old', 'o', 1);
    expect(await a.claim(T0, T0 + LEASE_MS, 10, 'id')).toEqual([]);
    expect(await a.claim(T0 + 30_000, T0 + 60_000, 10, 'id')).toEqual([]);
    expect(ids(await a.claim<{ id: string }>(T0 + 41_000, T0 + 70_000, 10, 'id'))).toEqual(['old']);
  });

  describe('rows that are not work to do', () => {
    const SLOTS: LeasedTable = {
      table: 'slots',
      id: 'slot',
      owner: 'owner',
      leaseUntil: 'until_at',
      order: 'slot',
    };
    const ofKey = (k: string, share: number) => ({
      where: '{row}.k = ? AND {row}.slot <= ?',
      params: [k, share],
    });
    const slot = async (queue: LeasedQueue, now: number, k: string, share: number) =>
      (await queue.claim<{ slot: number | string }>(now, now + LEASE_MS, 1, 'slot', ofKey(k, share))).map(
        (row) => Number(row.slot),
      );
    const sql = () => sqlOf(dataSource.manager);

    it('hands out the free rows of one key to one holder each, up to a bound; a row given back or never leased is free', async () => {
      // Slots 1 and 2 never leased (as a process of the version before seeds them), 3 beyond the bound.
      await sql().run("INSERT INTO slots (k, slot) VALUES ('d', 1), ('d', 2), ('d', 3), ('e', 1)", []);
      const a = new LeasedQueue(SLOTS, writer, dataSource, holder('replica-a', '1'));
      const b = new LeasedQueue(SLOTS, writer, dataSource, holder('replica-b', '1'));

      expect(await slot(a, T0, 'd', 2)).toEqual([1]);
      expect(await slot(b, T0, 'd', 2)).toEqual([2]);
      expect(await slot(a, T0, 'd', 2)).toEqual([]);
      expect(await slot(b, T0, 'e', 2)).toEqual([1]);

      // a gives its slot of d back: b takes it at once; e's slot stays b's.
      await a.release({ where: '{row}.k = ? AND {row}.slot = ?', params: ['d', 1] });
      expect(await slot(b, T0, 'd', 2)).toEqual([1]);
      // b stops: everything it held is free, whichever key.
      await b.release();
      expect(await slot(a, T0, 'e', 2)).toEqual([1]);
      expect(await slot(a, T0, 'd', 2)).toEqual([1]);
    });

    it('takes over a slot whose holder stopped renewing it, and not while it renews', async () => {
      await sql().run("INSERT INTO slots (k, slot) VALUES ('d', 1)", []);
      const a = new LeasedQueue(SLOTS, writer, dataSource, holder('replica-a', '1'));
      const b = new LeasedQueue(SLOTS, writer, dataSource, holder('replica-b', '1'));
      expect(await slot(a, T0, 'd', 1)).toEqual([1]);
      expect((await a.renew(T0 + 2 * LEASE_MS)).map(String)).toEqual(['1']);
      expect(await slot(b, T0 + LEASE_MS + 1, 'd', 1)).toEqual([]);
      expect(await slot(b, T0 + 2 * LEASE_MS + 1, 'd', 1)).toEqual([1]);
      expect(await a.renew(T0 + 3 * LEASE_MS)).toEqual([]);
    });

    it('leases a named row in epoch milliseconds: one holder at a time, taken over once it lapsed or given back', async () => {
      const NAMED: LeasedTable = {
        table: 'named',
        id: 'name',
        owner: 'holder',
        leaseUntil: 'until_ms',
        leaseTime: 'ms',
        order: 'name',
        nobody: "''",
      };
      await sql().run("INSERT INTO named (name) VALUES ('sweep'), ('other')", []);
      const a = new LeasedQueue(NAMED, writer, dataSource, holder('replica-a', '1'));
      const b = new LeasedQueue(NAMED, writer, dataSource, holder('replica-b', '1'));
      const sweep = { where: '{row}.name = ?', params: ['sweep'] };
      const claim = (queue: LeasedQueue, now: number) =>
        queue.claim<{ name: string }>(now, now + LEASE_MS, 1, 'name', sweep);

      expect(await claim(a, T0)).toEqual([{ name: 'sweep' }]);
      expect(await claim(b, T0)).toEqual([]);
      expect(await a.renew(T0 + 2 * LEASE_MS, ['sweep'])).toEqual(['sweep']);
      expect(await claim(b, T0 + 2 * LEASE_MS)).toEqual([]);
      expect(await claim(b, T0 + 2 * LEASE_MS + 1)).toEqual([{ name: 'sweep' }]);
      expect(await a.renew(T0 + 3 * LEASE_MS, ['sweep'])).toEqual([]);
      const [row] = await sql().all<{ holder: string; until_ms: number | string }>(
        "SELECT holder, until_ms FROM named WHERE name = 'sweep'",
        [],
      );
      expect({ ...row, until_ms: Number(row.until_ms) }).toEqual({
        holder: 'replica-b/1',
        until_ms: T0 + 3 * LEASE_MS + 1,
      });

      // b stops and gives it back (its holder never NULL): a takes it at once.
      await b.release();
      expect(await claim(a, T0 + 2 * LEASE_MS + 2)).toEqual([{ name: 'sweep' }]);
    });
  });
});
