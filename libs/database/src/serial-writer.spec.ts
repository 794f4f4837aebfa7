import { DataSource, type Logger } from 'typeorm';
import { closeDataSource } from './close-data-source';
import { SerialWriter } from './serial-writer';

/** Counts the top-level transactions the writer opens. */
class BeginCounter implements Logger {
  begins = 0;
  logQuery(query: string): void {
    if (query.startsWith('BEGIN')) this.begins++;
  }
  logQueryError(): void {}
  logQuerySlow(): void {}
  logSchemaBuild(): void {}
  logMigration(): void {}
  log(): void {}
}

describe('SerialWriter', () => {
  let dataSource: DataSource;
  let counter: BeginCounter;

  beforeEach(async () => {
    counter = new BeginCounter();
    dataSource = new DataSource({
      type: 'sqlite',
      database: ':memory:',
      logging: ['query'],
      logger: counter,
    });
    await dataSource.initialize();
    await dataSource.query('CREATE TABLE rows (writer TEXT, n INTEGER)');
    await dataSource.query('CREATE TABLE parents (id INTEGER PRIMARY KEY)');
    // Checked at COMMIT, so a write can make the whole commit fail.
    await dataSource.query(
      'CREATE TABLE children (parent INTEGER REFERENCES parents(id) DEFERRABLE INITIALLY DEFERRED)',
    );
    counter.begins = 0;
  });

  afterEach(() => closeDataSource(dataSource));

  const rows = (): Promise<string[]> =>
    dataSource
      .query<Array<{ writer: string }>>('SELECT writer FROM rows ORDER BY rowid')
      .then((all) => all.map((r) => r.writer));

  const slowInsert = (writer: string) => async (manager: DataSource['manager']) => {
    await manager.query('INSERT INTO rows VALUES (?, 1)', [writer]);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await manager.query('INSERT INTO rows VALUES (?, 2)', [writer]);
    return writer;
  };

  it('never lets two writers of one data source overlap, and a failing write rolls back alone', async () => {
    const first = new SerialWriter(dataSource);
    const second = new SerialWriter(dataSource);
    const failing = second.write(async (manager) => {
      await slowInsert('failing')(manager);
      throw new Error('rolled back');
    });
    await Promise.all([
      expect(first.write(slowInsert('a'))).resolves.toBe('a'),
      expect(failing).rejects.toThrow('rolled back'),
      expect(second.write(slowInsert('b'))).resolves.toBe('b'),
      expect(first.write(slowInsert('c'))).resolves.toBe('c'),
    ]);
    expect(await rows()).toEqual(['a', 'a', 'b', 'b', 'c', 'c']);
  });

  it('runs an idle write as its own transaction, and writes that queue up behind it as one', async () => {
    const writer = new SerialWriter(dataSource);
    await writer.write(slowInsert('alone'));
    expect(counter.begins).toBe(1);
    const first = writer.write(slowInsert('first'));
    const queued = ['q1', 'q2', 'q3', 'q4'].map((name) => writer.write(slowInsert(name)));
    await Promise.all([first, ...queued]);
    expect(counter.begins).toBe(3);
    expect(await rows()).toEqual([
      'alone',
      'alone',
      'first',
      'first',
      'q1',
      'q1',
      'q2',
      'q2',
      'q3',
      'q3',
      'q4',
      'q4',
    ]);
  });

  /** A write that holds the queue until released, so that the next writes share one batch. */
  const holding = (writer: SerialWriter): { release: () => void; written: Promise<void> } => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    return { release, written: writer.write(() => held) };
  };

  it('rolls a write of a group back to its savepoint alone: its neighbours commit with the group', async () => {
    await dataSource.query('CREATE TABLE unique_rows (v TEXT PRIMARY KEY)');
    await dataSource.query("INSERT INTO unique_rows VALUES ('taken')");
    counter.begins = 0;
    const writer = new SerialWriter(dataSource);
    const held = holding(writer);
    const insert = (v: string) => (manager: DataSource['manager']) =>
      manager.query('INSERT INTO unique_rows VALUES (?)', [v]);
    const before = writer.write(insert('before'));
    const duplicate = writer.write(async (manager) => {
      await manager.query("INSERT INTO rows VALUES ('undone', 1)");
      await insert('taken')(manager);
    });
    const after = writer.write(insert('after'));
    held.release();
    await expect(duplicate).rejects.toThrow(/UNIQUE/);
    await Promise.all([held.written, before, after]);
    const stored = await dataSource.query<Array<{ v: string }>>('SELECT v FROM unique_rows ORDER BY v');
    expect(stored.map((row) => row.v)).toEqual(['after', 'before', 'taken']);
    // The failing write's first statement went with its savepoint.
    expect(await rows()).toEqual([]);
    // The held write alone, then the group of three in one transaction: none ran again.
    expect(counter.begins).toBe(2);
  });

  it('keeps nothing of a group that SQLite rolled back itself, and runs each of its writes again alone', async () => {
    const writer = new SerialWriter(dataSource);
    const held = holding(writer);
    let runs = 0;
    const first = writer.write((manager) => manager.query("INSERT INTO rows VALUES ('first', 1)"));
    // On an I/O error SQLite ends the transaction itself; a ROLLBACK does the same here.
    const failing = writer.write(async (manager) => {
      if (++runs === 1) {
        await manager.query('ROLLBACK');
        throw new Error('disk I/O error');
      }
      await manager.query("INSERT INTO rows VALUES ('failing', 1)");
    });
    // Were it run in that group, its statement would commit on its own, outside any transaction.
    const other = writer.write((manager) => manager.query("INSERT INTO rows VALUES ('other', 1)"));
    held.release();
    await Promise.all([held.written, first, failing, other]);
    expect(await rows()).toEqual(['first', 'failing', 'other']);
    expect(runs).toBe(2);
    await writer.write((manager) => manager.query("INSERT INTO rows VALUES ('later', 1)"));
    expect(await rows()).toEqual(['first', 'failing', 'other', 'later']);
  });

  it('fails the group before the next write runs when a write hid that SQLite ended the transaction', async () => {
    const writer = new SerialWriter(dataSource);
    const held = holding(writer);
    let runs = 0;
    // An I/O error that the write caught: SQLite has rolled the transaction back, the write says nothing.
    const hiding = writer.write(async (manager) => {
      if (++runs === 1) {
        await manager.query('ROLLBACK');
        return;
      }
      await manager.query("INSERT INTO rows VALUES ('hiding', 1)");
    });
    const other = writer.write((manager) => manager.query("INSERT INTO rows VALUES ('other', 1)"));
    held.release();
    await Promise.all([held.written, hiding, other]);
    // Each ran again alone; had the next write run on, it would have been committed outside the group.
    expect(runs).toBe(2);
    expect(await rows()).toEqual(['hiding', 'other']);
  });

  it('runs each write of a failed batch again alone, so only the failing one is lost', async () => {
    const writer = new SerialWriter(dataSource);
    const first = writer.write(slowInsert('first'));
    const good = writer.write(slowInsert('good'));
    // Valid until COMMIT checks the deferred key: the whole batch's commit fails.
    const orphan = writer.write((manager) => manager.query('INSERT INTO children VALUES (42)'));
    const after = writer.write(slowInsert('after'));
    await expect(first).resolves.toBe('first');
    await expect(good).resolves.toBe('good');
    await expect(orphan).rejects.toThrow(/FOREIGN KEY/);
    await expect(after).resolves.toBe('after');
    expect(await rows()).toEqual(['first', 'first', 'good', 'good', 'after', 'after']);
    expect(await dataSource.query('SELECT * FROM children')).toEqual([]);
    // first alone; the failed batch; then good, orphan and after each in its own transaction.
    expect(counter.begins).toBe(5);
  });
});
