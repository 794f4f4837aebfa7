import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sqlite3 from 'sqlite3';
import {
  CannotExecuteNotConnectedError,
  Column,
  DataSource,
  Entity,
  PrimaryColumn,
  UpdateDateColumn,
  type MigrationInterface,
} from 'typeorm';
import { closeDataSource } from './close-data-source';
import { dataSourceOptions } from './data-source-options';
import { anyOf, EntityTable } from './entity-table';
import { SerialWriter } from './serial-writer';
import { sqlOf } from './sql';
import { PreparedStatements } from './sqlite/prepared-statements';
import { openSqliteConnection, preparedStatementsOf } from './sqlite/sqlite-driver';
import { sqliteConnectionOf, sqliteStatementsOf } from './sqlite/sqlite-sql';
import { StatementCounter } from './sqlite/statement-counter';

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
    await closeDataSource(dataSource);
    rmSync(dir, { recursive: true, force: true });
  });

  const sql = () => sqlOf(dataSource.manager);

  it('runs on the plain connection TypeORM opened, in WAL with synchronous NORMAL', async () => {
    const connection = sqliteConnectionOf(dataSource);
    // node-sqlite3's own Database, no subclass: the kept statements live beside it.
    expect(connection && Object.getPrototypeOf(connection)).toBe(sqlite3.Database.prototype);
    expect(sqliteStatementsOf(dataSource)).toBeInstanceOf(PreparedStatements);
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

  it('counts the rows a filter picks (null is IS NULL), as a number', async () => {
    await table.insert(sql(), [
      { id: 'k1', ownerId: 'o9', data: null, done: false, price: 1 },
      { id: 'k2', ownerId: 'o9', data: { n: 2 }, done: false, price: 1 },
      { id: 'k3', ownerId: 'o9', data: null, done: true, price: 1 },
    ]);
    expect(await table.count(sql(), { ownerId: 'o9' })).toBe(3);
    expect(await table.count(sql(), { ownerId: 'o9', done: false })).toBe(2);
    expect(await table.count(sql(), { ownerId: 'o9', data: null, done: true })).toBe(1);
    expect(await table.count(sql(), { ownerId: 'nobody' })).toBe(0);
    await table.delete(sql(), { ownerId: 'o9' });
  });

  it('updates many rows by key in one statement, each to its own values; the last of two for one key wins', async () => {
    await table.insert(sql(), [
      { id: 'e1', ownerId: 'o3', data: null, done: false, price: 1 },
      { id: 'e2', ownerId: 'o3', data: null, done: false, price: 2 },
      { id: 'e3', ownerId: 'o3', data: null, done: false, price: 3 },
    ]);
    const statements: string[] = [];
    const connection = sqliteConnectionOf(dataSource)!;
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

  it('reads some columns alone, and picks by a list of values (IN), an empty list picking none', async () => {
    await table.insert(sql(), [
      { id: 'l1', ownerId: 'o6', data: null, done: true, price: 1 },
      { id: 'l2', ownerId: 'o6', data: null, done: false, price: 2 },
      { id: 'l3', ownerId: 'o6', data: null, done: false, price: 3 },
    ]);
    // Through the column's transformer, as find gives it.
    expect(
      await table.findColumns(sql(), ['id', 'price'], { ownerId: 'o6' }, { orderBy: [['id', 'DESC']] }),
    ).toEqual([
      { id: 'l3', price: 3 },
      { id: 'l2', price: 2 },
      { id: 'l1', price: 1 },
    ]);
    const picked = await table.find(
      sql(),
      { ownerId: 'o6', id: anyOf(['l3', 'l1', 'zzz']) },
      { orderBy: [['id', 'ASC']] },
    );
    expect(picked.map((row) => [row.id, row.done])).toEqual([
      ['l1', true],
      ['l3', false],
    ]);
    expect(await table.count(sql(), { id: anyOf(['l1', 'l2', 'l3', 'l1', 'l2']) })).toBe(3);
    expect(await table.find(sql(), { id: anyOf([]) })).toEqual([]);
    expect(await table.count(sql(), { id: anyOf([]) })).toBe(0);
    expect(await table.update(sql(), { id: anyOf([]) }, { price: 9 })).toBe(0);
    expect(await table.delete(sql(), { id: anyOf(['l2', 'l3']) })).toBe(2);
    expect(await table.findColumns(sql(), ['id'], { ownerId: 'o6' })).toEqual([{ id: 'l1' }]);
  });

  it('adds to a number column in the statement, moving the update date', async () => {
    await table.insert(sql(), { id: 'n1', ownerId: 'o7', price: 2 });
    await table.update(sql(), { id: 'n1' }, { price: 2 });
    const before = await table.findOne(sql(), { id: 'n1' });
    await dataSource.query("UPDATE things SET updated_at = datetime('now', '-1 day') WHERE id = 'n1'");
    // The transformer stores cents: 250 cents added is 2.50.
    expect(await table.add(sql(), { id: 'n1' }, 'price', 250)).toBe(1);
    expect(await table.add(sql(), { id: 'zzz' }, 'price', 250)).toBe(0);
    const after = await table.findOne(sql(), { id: 'n1' });
    expect(after?.price).toBe(4.5);
    expect(after!.updatedAt.getTime()).toBeGreaterThanOrEqual(before!.updatedAt.getTime() - 1000);
  });

  it('closes with its kept statements finalized (closeDataSource), and opens again', async () => {
    await table.findOne(sql(), { id: 'a' });
    await expect(closeDataSource(dataSource)).resolves.toBeUndefined();
    expect(dataSource.isInitialized).toBe(false);
    await dataSource.initialize();
    expect(await table.findOne(sql(), { id: 'a' })).toMatchObject({ price: 12.5 });
  });
});

/** Closes a plain connection: rejects with SQLite's error if it cannot. */
function close(database: sqlite3.Database): Promise<void> {
  return new Promise<void>((resolve, reject) =>
    database.close((error) => (error ? reject(error) : resolve())),
  );
}

describe('PreparedStatements', () => {
  it('answers a statement that fails to prepare with its error, and prepares it again next time', async () => {
    const database = new sqlite3.Database(':memory:');
    const statements = new PreparedStatements(database);
    await expect(statements.all('SELECT v FROM later', [])).rejects.toThrow(/no such table/);
    await statements.run('CREATE TABLE later (v)', []);
    await statements.run('INSERT INTO later VALUES (?)', [7]);
    expect(await statements.all('SELECT v FROM later', [])).toEqual([{ v: 7 }]);
    await statements.finalize();
    await close(database);
  });

  it('runs a statement that is under way again on a copy of it, and finalizes every copy', async () => {
    const database = new sqlite3.Database(':memory:');
    const statements = new PreparedStatements(database);
    const prepare = jest.spyOn(database, 'prepare');
    await statements.all('SELECT ? AS v', [0]);
    await statements.all('SELECT ? AS v', [1]);
    expect(prepare).toHaveBeenCalledTimes(1);
    const together = await Promise.all([1, 2, 3].map((v) => statements.all('SELECT ? AS v', [v])));
    expect(together).toEqual([[{ v: 1 }], [{ v: 2 }], [{ v: 3 }]]);
    expect(prepare).toHaveBeenCalledTimes(3);
    await statements.finalize();
    await close(database);
  });

  it('keeps the connection from closing until they are finalized, and refuses new ones after', async () => {
    const database = new sqlite3.Database(':memory:');
    const statements = new PreparedStatements(database);
    await statements.all('SELECT 1 AS v', []);
    // node-sqlite3 closes with sqlite3_close: refused while a statement is not finalized.
    await expect(close(database)).rejects.toThrow(
      /SQLITE_BUSY: unable to close due to unfinalized statements/,
    );
    // A refused close leaves the connection as it was: the kept statement still runs.
    expect(await statements.all('SELECT 1 AS v', [])).toEqual([{ v: 1 }]);
    await statements.finalize();
    await expect(statements.all('SELECT 1 AS v', [])).rejects.toThrow(CannotExecuteNotConnectedError);
    await expect(statements.script('SELECT 1')).rejects.toThrow(CannotExecuteNotConnectedError);
    await close(database);
  });
});

describe('the bench-only statement counter', () => {
  it('writes how many statements SQLite ran on the connections it watches', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tps-count-'));
    const file = join(dir, 'count');
    const counter = new StatementCounter(file);
    const database = openSqliteConnection(':memory:');
    const statements = preparedStatementsOf(database)!;
    // Open, with the pragmas every connection sets, before the counter listens. An exec runs alone
    // (it waits for every statement queued before it): once it ends, those pragmas have run, and
    // none is traced after the counter listens (it was, once, on a busy machine).
    await statements.all('SELECT 0', []);
    await new Promise<void>((resolve, reject) =>
      database.exec('SELECT 0', (error) => (error ? reject(error) : resolve())),
    );
    counter.watch(database);
    await statements.all('SELECT 1', []);
    await statements.run('CREATE TABLE t (v)', []);
    // SQLite traces the trigger it fires too; that is no statement.
    await statements.run('CREATE TEMP TRIGGER t_insert AFTER INSERT ON t BEGIN SELECT 1; END', []);
    await statements.run('INSERT INTO t VALUES (?)', [1]);
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
    await statements.all(MARKER, []);
    await markerReported;
    counter.write();
    expect(Number(readFileSync(file, 'utf8'))).toBe(5);
    counter.stop();
    await statements.finalize();
    await close(database);
    rmSync(dir, { recursive: true, force: true });
  });
});
