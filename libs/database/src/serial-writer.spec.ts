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
