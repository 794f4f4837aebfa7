import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { StorageUnavailableError } from '@tps/domain';
import { closeDataSource } from './close-data-source';
import { SerialWriter } from './serial-writer';

/** A real full disk: a 2 MiB tmpfs that a file fills (you need root, as CI and this machine have). */
describe('SerialWriter on a disk that fills up', () => {
  const mountPoint = mkdtempSync(join(tmpdir(), 'tps-full-'));
  const file = join(mountPoint, 'db.sqlite');
  const filler = join(mountPoint, 'filler');
  let dataSource: DataSource;

  const open = async (): Promise<DataSource> => {
    const source = new DataSource({ type: 'sqlite', database: file, enableWAL: true });
    await source.initialize();
    return source;
  };
  const fill = (): void => {
    try {
      execFileSync('dd', ['if=/dev/zero', `of=${filler}`, 'bs=64k', 'count=1000'], { stdio: 'ignore' });
    } catch {
      // dd stops at the full disk, which is the point.
    }
  };
  const stored = async (source: DataSource): Promise<string[]> =>
    (await source.query<Array<{ v: string }>>('SELECT substr(v, 1, 8) AS v FROM rows ORDER BY rowid')).map(
      (row) => row.v,
    );

  beforeAll(() => execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', mountPoint]));
  afterAll(() => {
    execFileSync('umount', [mountPoint]);
    rmSync(mountPoint, { recursive: true, force: true });
  });

  beforeEach(async () => {
    for (const name of readdirSync(mountPoint)) rmSync(join(mountPoint, name));
    dataSource = await open();
    await dataSource.query('CREATE TABLE rows (v TEXT)');
    await dataSource.query('CREATE TABLE migrations (id INTEGER PRIMARY KEY, name TEXT)');
    await dataSource.query("INSERT INTO migrations VALUES (1, 'initial')");
  });

  afterEach(async () => {
    await closeDataSource(dataSource);
  });

  const insert = (writer: SerialWriter, v: string): Promise<unknown> =>
    writer.write((manager) => manager.query('INSERT INTO rows VALUES (?)', [v]));

  it('answers INT-002 while the disk is full, and stores every later write once space returns', async () => {
    const writer = new SerialWriter(dataSource);
    await insert(writer, 'before');
    fill();
    const big = 'x'.repeat(600_000);
    await expect(insert(writer, `full-1${big}`)).rejects.toBeInstanceOf(StorageUnavailableError);
    expect((await writer.health()).state).toBe('down');
    rmSync(filler);
    await insert(writer, 'after-1');
    await insert(writer, 'after-2');
    expect((await writer.health()).state).toBe('up');
    await closeDataSource(dataSource);

    const reopened = await open();
    expect(await stored(reopened)).toEqual(['before', 'after-1', 'after-2']);
    await closeDataSource(reopened);
  });

  it('rejects a whole batch that the full disk refuses, and none of it is stored', async () => {
    const writer = new SerialWriter(dataSource);
    fill();
    const big = 'y'.repeat(400_000);
    const results = await Promise.allSettled([1, 2, 3].map((n) => insert(writer, `batch-${n}${big}`)));
    expect(results.every((r) => r.status === 'rejected' && r.reason instanceof StorageUnavailableError)).toBe(
      true,
    );
    rmSync(filler);
    await insert(writer, 'later');
    await closeDataSource(dataSource);
    const reopened = await open();
    expect(await stored(reopened)).toEqual(['later']);
    await closeDataSource(reopened);
  });
});
