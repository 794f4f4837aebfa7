import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource, type EntityManager } from 'typeorm';
import { closeDataSource } from './close-data-source';
import { dataSourceOptions } from './data-source-options';
import { openSerialWriter } from './open-serial-writer';
import type { SerialWriter } from './serial-writer';
import { sqlOf } from './sql';

describe('openSerialWriter', () => {
  let dir: string;
  let reads: DataSource;
  let writer: SerialWriter;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tps-writer-'));
    reads = new DataSource(
      dataSourceOptions({ url: `sqlite:${join(dir, 'store.sqlite')}`, entities: [], migrations: [] }),
    );
    await reads.initialize();
    await reads.query('CREATE TABLE payments (id TEXT PRIMARY KEY, status TEXT)');
    writer = await openSerialWriter(reads);
  });

  afterEach(async () => {
    await writer.onApplicationShutdown();
    await closeDataSource(reads);
    rmSync(dir, { recursive: true, force: true });
  });

  const readStatus = async (id: string): Promise<string | null> => {
    const [row] = await sqlOf(reads.manager).all<{ status: string }>(
      'SELECT status FROM payments WHERE id = ?',
      [id],
    );
    return row?.status ?? null;
  };

  /** A write that inserts a row, then waits until `release` is called, then fails or commits. */
  const heldWrite = (id: string, fails: boolean) => {
    let release = (): void => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    let inserted = (): void => undefined;
    const insertedNow = new Promise<void>((resolve) => (inserted = resolve));
    const done = writer.write(async (manager: EntityManager) => {
      await sqlOf(manager).run('INSERT INTO payments (id, status) VALUES (?, ?)', [id, 'APPROVAL']);
      inserted();
      await released;
      if (fails) throw new Error('the commit that never came');
    });
    return { done, insertedNow, release };
  };

  it('a read outside the queue never sees a write under way, even one that then fails', async () => {
    const write = heldWrite('trx-1', true);
    await write.insertedNow;

    // Through the prepared statements and through TypeORM alike.
    expect(await readStatus('trx-1')).toBeNull();
    expect(await reads.query('SELECT id FROM payments')).toEqual([]);

    write.release();
    await expect(write.done).rejects.toThrow('the commit that never came');
    expect(await readStatus('trx-1')).toBeNull();
  });

  it('a read that starts once a write resolved sees it', async () => {
    const write = heldWrite('trx-2', false);
    await write.insertedNow;
    expect(await readStatus('trx-2')).toBeNull();
    write.release();
    await write.done;
    expect(await readStatus('trx-2')).toBe('APPROVAL');
  });

  it('writes on a connection of its own, closed at shutdown once the writes asked for are done', async () => {
    let writes: DataSource | undefined;
    const last = writer.write(async (manager) => {
      writes = manager.connection;
      await sqlOf(manager).run('INSERT INTO payments (id, status) VALUES (?, ?)', ['trx-3', 'APPROVAL']);
    });
    await writer.onApplicationShutdown();
    await last;
    expect(writes).not.toBe(reads);
    expect(writes?.isInitialized).toBe(false);
    expect(reads.isInitialized).toBe(true);
    expect(await readStatus('trx-3')).toBe('APPROVAL');
  });

  it('writes on the data source itself when it is an in-memory SQLite, and leaves it open', async () => {
    const memory = new DataSource({ type: 'sqlite', database: ':memory:' });
    await memory.initialize();
    await memory.query('CREATE TABLE payments (id TEXT PRIMARY KEY)');
    const shared = await openSerialWriter(memory);
    await shared.write((manager) => manager.query("INSERT INTO payments VALUES ('trx-4')"));
    await shared.onApplicationShutdown();
    expect(memory.isInitialized).toBe(true);
    expect(await memory.query('SELECT id FROM payments')).toEqual([{ id: 'trx-4' }]);
    await closeDataSource(memory);
  });
});
