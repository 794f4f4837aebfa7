import { existsSync, mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CannotExecuteNotConnectedError,
  DataSource,
  type MigrationInterface,
  type QueryRunner,
} from 'typeorm';
import { closeDataSource } from './close-data-source';
import { dataSourceOptions } from './data-source-options';
import { sqlOf } from './sql';

class CreateThings1700000000000 implements MigrationInterface {
  name = 'CreateThings1700000000000';
  async up(runner: QueryRunner): Promise<void> {
    await runner.query('CREATE TABLE things (id varchar PRIMARY KEY, n integer NOT NULL)');
  }
  async down(): Promise<void> {}
}

/** The files under `dir` this process holds open (Linux: its descriptors in /proc). */
function openFilesUnder(dir: string): string[] {
  return readdirSync('/proc/self/fd').flatMap((fd) => {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      return target.startsWith(`${dir}/`) ? [target] : [];
    } catch {
      // The descriptor readdir itself used, closed since.
      return [];
    }
  });
}

describe('closeDataSource on SQLite', () => {
  let dir: string;
  let file: string;
  let dataSource: DataSource;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tps-close-'));
    file = join(dir, 'db.sqlite');
    dataSource = new DataSource(
      dataSourceOptions({ url: `sqlite:${file}`, entities: [], migrations: [CreateThings1700000000000] }),
    );
    await dataSource.initialize();
    // Statements prepared once and kept on the connection, as the apps' reads and writes are.
    await sqlOf(dataSource.manager).run('INSERT INTO things (id, n) VALUES (?, ?)', ['a', 1]);
    expect(await sqlOf(dataSource.manager).all('SELECT n FROM things WHERE id = ?', ['a'])).toEqual([
      { n: 1 },
    ]);
    expect(openFilesUnder(dir)).toContain(file);
  });

  afterEach(async () => {
    await closeDataSource(dataSource);
    rmSync(dir, { recursive: true, force: true });
  });

  it('finalizes the kept statements, closes the connection and releases the file', async () => {
    await closeDataSource(dataSource);
    expect(dataSource.isInitialized).toBe(false);
    expect(openFilesUnder(dir)).toEqual([]);
    // The last connection of a file in WAL checkpoints the log and removes it as it closes.
    expect(existsSync(`${file}-wal`)).toBe(false);
    const read = async (): Promise<unknown> => sqlOf(dataSource.manager).all('SELECT n FROM things', []);
    await expect(read()).rejects.toThrow(CannotExecuteNotConnectedError);
  });

  it("TypeORM's destroy alone fails while statements are kept, and leaves the file open", async () => {
    await expect(dataSource.destroy()).rejects.toThrow(
      /SQLITE_BUSY: unable to close due to unfinalized statements/,
    );
    expect(dataSource.isInitialized).toBe(true);
    expect(openFilesUnder(dir)).toContain(file);
    // Still open and whole: closeDataSource then closes it.
    await closeDataSource(dataSource);
    expect(openFilesUnder(dir)).toEqual([]);
  });
});
