import { DataSource } from 'typeorm';
import { SerialWriter } from './serial-writer';

describe('SerialWriter', () => {
  let dataSource: DataSource;

  beforeEach(async () => {
    dataSource = new DataSource({ type: 'sqlite', database: ':memory:' });
    await dataSource.initialize();
    await dataSource.query('CREATE TABLE rows (writer TEXT, n INTEGER)');
  });

  afterEach(() => dataSource.destroy());

  it('never lets two writers of one data source overlap, so each transaction stays its own', async () => {
    const first = new SerialWriter(dataSource);
    const second = new SerialWriter(dataSource);
    const slowInsert = (writer: string) => async (manager: DataSource['manager']) => {
      await manager.query('INSERT INTO rows VALUES (?, 1)', [writer]);
      await new Promise((resolve) => setTimeout(resolve, 5));
      await manager.query('INSERT INTO rows VALUES (?, 2)', [writer]);
    };
    const failing = second.write(async (manager) => {
      await slowInsert('failing')(manager);
      throw new Error('rolled back');
    });
    await Promise.all([
      first.write(slowInsert('a')),
      expect(failing).rejects.toThrow('rolled back'),
      second.write(slowInsert('b')),
      first.write(slowInsert('c')),
    ]);
    const rows = await dataSource.query<Array<{ writer: string }>>('SELECT writer FROM rows ORDER BY rowid');
    expect(rows.map((r) => r.writer)).toEqual(['a', 'a', 'b', 'b', 'c', 'c']);
  });
});
