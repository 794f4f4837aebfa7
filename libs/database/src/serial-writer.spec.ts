import { DataSource, type Logger } from 'typeorm';
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

  afterEach(() => dataSource.destroy());

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

  it('runs writes with keys that differ at the same time in one batch', async () => {
    const writer = new SerialWriter(dataSource);
    const held = holding(writer);
    let secondStarted: () => void = () => undefined;
    const started = new Promise<void>((resolve) => (secondStarted = resolve));
    const tooLong = new Promise<never>((_, reject) =>
      setTimeout(
        () => reject(new Error('the first write waited for the second: they ran in turn')),
        2000,
      ).unref(),
    );
    // The first can only end once the second has begun.
    const first = writer.writeKeyed(['first'], async (manager) => {
      await Promise.race([started, tooLong]);
      await manager.query("INSERT INTO rows VALUES ('first', 1)");
    });
    const second = writer.writeKeyed(['second'], async (manager) => {
      secondStarted();
      await manager.query("INSERT INTO rows VALUES ('second', 1)");
    });
    held.release();
    await Promise.all([held.written, first, second]);
    expect((await rows()).sort()).toEqual(['first', 'second']);
    expect(counter.begins).toBe(2);
  });

  it('keeps nothing that a write of a batch sends after SQLite has rolled the batch back', async () => {
    const writer = new SerialWriter(dataSource);
    const held = holding(writer);
    let rolledBack: () => void = () => undefined;
    const afterRollback = new Promise<void>((resolve) => (rolledBack = resolve));
    let runs = 0;
    // On an I/O error SQLite ends the transaction itself; a ROLLBACK does the same here.
    const failing = writer.writeKeyed(['failing'], async (manager) => {
      if (++runs === 1) {
        await manager.query('ROLLBACK');
        rolledBack();
        throw new Error('disk I/O error');
      }
      await manager.query("INSERT INTO rows VALUES ('failing', 1)");
    });
    // Its statement comes after the rollback: outside any transaction, it would commit on its own.
    const other = writer.writeKeyed(['other'], async (manager) => {
      await afterRollback;
      await manager.query("INSERT INTO rows VALUES ('other', 1)");
    });
    held.release();
    await Promise.all([held.written, failing, other]);
    // Both ran again alone, once each; the batch kept nothing.
    expect(await rows()).toEqual(['failing', 'other']);
    // And writes outside a batch of writes at once pass again.
    await writer.write((manager) => manager.query("INSERT INTO rows VALUES ('later', 1)"));
    expect(await rows()).toEqual(['failing', 'other', 'later']);
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
