import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TestStore } from '@tps/testing';

/** Runs `use` on a PostgreSQL database of its own on the test server: made for it, dropped after. */
export async function withOwnDatabase<T>(name: string, use: (url: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), `tps-${name}-`));
  const store = new TestStore('postgres', dir);
  try {
    return await use(await store.url(name));
  } finally {
    await store.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}
