import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  Column,
  DataSource,
  Entity,
  PrimaryColumn,
  UpdateDateColumn,
  type MigrationInterface,
} from 'typeorm';
import { dataSourceOptions } from './data-source-options';
import { EntityTable } from './entity-table';
import { PreparedDatabase, StatementCounter } from './prepared-sqlite';
import { SerialWriter } from './serial-writer';
import { sqlOf } from './sql';

const CENTS = { to: (value: number) => value * 100, from: (value: number) => value / 100 };

@Entity('things')
class Thing {
  @PrimaryColumn({ type: 'varchar' }) id!: string;
  @Column({ name: 'owner_id', type: 'varchar' }) ownerId!: string;
  @Column({ type: 'simple-json', nullable: true }) data!: { n: number } | null;
  @Column({ type: 'boolean', default: false }) done!: boolean;
  @Column({ type: 'integer', transformer: CENTS }) price!: number;
  @UpdateDateColumn({ name: 'updated_at' }) updatedAt!: Date;
}

class CreateThings1700000000000 implements MigrationInterface {
  name = 'CreateThings1700000000000';
  async up(runner: import('typeorm').QueryRunner): Promise<void> {
    await runner.query(
      `CREATE TABLE things (id varchar PRIMARY KEY, owner_id varchar NOT NULL, data text, done boolean NOT NULL DEFAULT 0,
       price integer NOT NULL, updated_at datetime NOT NULL DEFAULT (datetime('now')))`,
    );
  }
  async down(): Promise<void> {}
}

describe('EntityTable on a prepared SQLite connection', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tps-entity-table-'));
  let dataSource: DataSource;
  let table: EntityTable<Thing>;

  beforeAll(async () => {
    dataSource = new DataSource(
      dataSourceOptions({
        url: `sqlite:${join(dir, 'db.sqlite')}`,
        entities: [Thing],
        migrations: [CreateThings1700000000000],
      }),
    );
    await dataSource.initialize();
    table = new EntityTable(dataSource, Thing);
  });

  afterAll(async () => {
    if (dataSource.isInitialized) await dataSource.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  const sql = () => sqlOf(dataSource.manager);

  it('runs on the connection TypeORM opened, in WAL with synchronous NORMAL', async () => {
    const { databaseConnection } = dataSource.driver as unknown as { databaseConnection: unknown };
    expect(databaseConnection).toBeInstanceOf(PreparedDatabase);
    expect(await sql().all('PRAGMA journal_mode', [])).toEqual([{ journal_mode: 'wal' }]);
    // 1 is NORMAL (2 would be FULL).
    expect(await sql().all('PRAGMA synchronous', [])).toEqual([{ synchronous: 1 }]);
  });

  it('stores and reads values exactly as TypeORM does: JSON, booleans, transformers', async () => {
    await table.insert(sql(), [
      { id: 'a', ownerId: 'o1', data: { n: 1 }, done: true, price: 12.5 },
      { id: 'b', ownerId: 'o1', data: null, done: false, price: 3 },
    ]);
    const viaTypeOrm = await dataSource.getRepository(Thing).findOneByOrFail({ id: 'a' });
    expect(viaTypeOrm).toMatchObject({ data: { n: 1 }, done: true, price: 12.5 });
    expect(await table.findOne(sql(), { id: 'a' })).toEqual(viaTypeOrm);
    expect(await table.find(sql(), { ownerId: 'o1', data: null })).toMatchObject([{ id: 'b', done: false }]);
    expect(
      (await table.find(sql(), { ownerId: 'o1' }, { orderBy: [['id', 'DESC']], limit: 1 })).map((t) => t.id),
    ).toEqual(['b']);
  });

  it('a taken key is an answer, not an error: the write goes on and commits the rest', async () => {
    const writer = new SerialWriter(dataSource);
    const taken = await writer.write(async (manager) => {
      const first = await table.insertUnlessTaken(sqlOf(manager), { id: 'c', ownerId: 'o2', price: 1 });
      const again = await table.insertUnlessTaken(sqlOf(manager), { id: 'c', ownerId: 'o3', price: 2 });
      await table.insert(sqlOf(manager), { id: 'd', ownerId: 'o2', price: 4 });
      return [first, again];
    });
    expect(taken).toEqual([true, false]);
    expect(
      (await table.find(sql(), { ownerId: 'o2' }, { orderBy: [['id', 'ASC']] })).map((t) => t.id),
    ).toEqual(['c', 'd']);
  });

  it('updates and deletes by equality (null is IS NULL), counting the rows changed', async () => {
    expect(await table.update(sql(), { ownerId: 'o1', data: null }, { done: true, price: 7 })).toBe(1);
    expect(await table.findOne(sql(), { id: 'b' })).toMatchObject({ done: true, price: 7 });
    expect(await table.delete(sql(), { id: 'zzz' })).toBe(0);
    expect(await table.delete(sql(), { id: 'b' })).toBe(1);
    expect(await table.findOne(sql(), { id: 'b' })).toBeNull();
  });

  it('updates many rows by key in one statement, each to its own values; the last of two for one key wins', async () => {
    await table.insert(sql(), [
      { id: 'e1', ownerId: 'o3', data: null, done: false, price: 1 },
      { id: 'e2', ownerId: 'o3', data: null, done: false, price: 2 },
      { id: 'e3', ownerId: 'o3', data: null, done: false, price: 3 },
    ]);
    const statements: string[] = [];
    const connection = (dataSource.driver as unknown as { databaseConnection: PreparedDatabase })
      .databaseConnection;
    // SQLite reports statements to the main thread in order: once a marker run after the work is
    // reported, every statement of the work has been.
    const MARKER = "SELECT 'statements settled'";
    let settled: () => void = () => undefined;
    const markerReported = new Promise<void>((resolve) => (settled = resolve));
    const listen = (text: string): void => {
      if (text === MARKER) settled();
      else statements.push(text);
    };
    connection.on('trace', listen);
    await table.updateEach(sql(), 'id', [
      { id: 'e1', data: { n: 10 }, done: true, price: 10.5 },
      { id: 'e3', data: { n: 30 }, done: false, price: 30 },
      { id: 'e1', data: { n: 11 }, done: true, price: 11 },
    ]);
    await new Promise((resolve) => connection.get(MARKER, resolve));
    await markerReported;
    connection.off('trace', listen);
    expect(statements).toHaveLength(1);
    const rows = await dataSource
      .getRepository(Thing)
      .find({ where: { ownerId: 'o3' }, order: { id: 'ASC' } });
    expect(rows.map((row) => [row.id, row.data, row.done, row.price])).toEqual([
      ['e1', { n: 11 }, true, 11],
      ['e2', null, false, 2],
      ['e3', { n: 30 }, false, 30],
    ]);
  });

  it('updates many rows only where the table holds the guard and the values each row gives of `matching`', async () => {
    await table.insert(sql(), [
      { id: 'm1', ownerId: 'o4', data: null, done: false, price: 1 },
      { id: 'm2', ownerId: 'o4', data: null, done: false, price: 2 },
      { id: 'm3', ownerId: 'o5', data: null, done: false, price: 3 },
    ]);
    const changed = await table.updateEachWhere(
      sql(),
      'id',
      [
        { id: 'm1', price: 1, done: true },
        { id: 'm2', price: 99, done: true },
        { id: 'm3', price: 3, done: true },
      ],
      { ownerId: 'o4' },
      ['price'],
    );
    // m2's price is not 99, m3 is not o4's: only m1 changed, and its price was compared, not set.
    expect(changed).toEqual(['m1']);
    const rows = await table.find(sql(), { done: true }, { orderBy: [['id', 'ASC']] });
    expect(rows.filter((row) => row.id.startsWith('m')).map((row) => [row.id, row.price])).toEqual([
      ['m1', 1],
    ]);
  });

  it('finalizes its statements when TypeORM closes the connection, which SQLite requires', async () => {
    await table.findOne(sql(), { id: 'a' });
    await expect(dataSource.destroy()).resolves.toBeUndefined();
    await dataSource.initialize();
    expect(await table.findOne(sql(), { id: 'a' })).toMatchObject({ price: 12.5 });
  });
});

describe('PreparedDatabase', () => {
  it('answers a statement that fails to prepare with its error, and prepares it again next time', async () => {
    const database = new PreparedDatabase(':memory:');
    await expect(database.allPrepared('SELECT v FROM later', [])).rejects.toThrow(/no such table/);
    await database.runPrepared('CREATE TABLE later (v)', []);
    await database.runPrepared('INSERT INTO later VALUES (?)', [7]);
    expect(await database.allPrepared('SELECT v FROM later', [])).toEqual([{ v: 7 }]);
    await new Promise<void>((resolve, reject) =>
      database.close((error) => (error ? reject(error) : resolve())),
    );
  });

  it('runs a statement that is under way again on a copy of it, and closes with every copy', async () => {
    const database = new PreparedDatabase(':memory:');
    const prepare = jest.spyOn(database, 'prepare');
    await database.allPrepared('SELECT ? AS v', [0]);
    await database.allPrepared('SELECT ? AS v', [1]);
    expect(prepare).toHaveBeenCalledTimes(1);
    const together = await Promise.all([1, 2, 3].map((v) => database.allPrepared('SELECT ? AS v', [v])));
    expect(together).toEqual([[{ v: 1 }], [{ v: 2 }], [{ v: 3 }]]);
    expect(prepare).toHaveBeenCalledTimes(3);
    await new Promise<void>((resolve, reject) =>
      database.close((error) => (error ? reject(error) : resolve())),
    );
  });
});

describe('the bench-only statement counter', () => {
  it('writes how many statements SQLite ran on the connections it watches', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tps-count-'));
    const file = join(dir, 'count');
    const counter = new StatementCounter(file);
    const database = new PreparedDatabase(':memory:');
    // Open, with the pragmas every connection sets, before the counter listens. An exec runs alone
    // (it waits for every statement queued before it): once it ends, those pragmas have run, and
    // none is traced after the counter listens (it was, once, on a busy machine).
    await database.allPrepared('SELECT 0', []);
    await new Promise<void>((resolve, reject) =>
      database.exec('SELECT 0', (error) => (error ? reject(error) : resolve())),
    );
    counter.watch(database);
    await database.allPrepared('SELECT 1', []);
    await database.runPrepared('CREATE TABLE t (v)', []);
    // SQLite traces the trigger it fires too; that is no statement.
    await database.runPrepared('CREATE TEMP TRIGGER t_insert AFTER INSERT ON t BEGIN SELECT 1; END', []);
    await database.runPrepared('INSERT INTO t VALUES (?)', [1]);
    // SQLite's trace reaches JavaScript after the statement's own callback: wait for the fourth.
    const written = async (): Promise<number> => {
      for (let tries = 0; ; tries++) {
        counter.write();
        const count = Number(readFileSync(file, 'utf8'));
        if (count >= 4 || tries === 100) return count;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    };
    expect(await written()).toBe(4);
    // A trigger's line would come last. SQLite reports statements in order, so once a marker run
    // after the INSERT is reported (seen as the connection emits it, after the counter's listener)
    // the trigger's line was too: the count is the four and the marker.
    const MARKER = "SELECT 'after the trigger'";
    const emit = database.emit.bind(database);
    const markerReported = new Promise<void>((resolve) => {
      database.emit = (event: string | symbol, ...args: unknown[]): boolean => {
        const listened = emit(event, ...args);
        if (event === 'trace' && args[0] === MARKER) resolve();
        return listened;
      };
    });
    await database.allPrepared(MARKER, []);
    await markerReported;
    counter.write();
    expect(Number(readFileSync(file, 'utf8'))).toBe(5);
    counter.stop();
    await new Promise<void>((resolve) => database.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  });
});
