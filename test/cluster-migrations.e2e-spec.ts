import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { API_MIGRATIONS, dataSourceOptions, openDataSource, closeDataSource } from '@tps/database';
import { TestStore } from '@tps/testing';
import { Replicas } from './cluster-replicas';

/** Each migration recorded once in the store's migrations table. */
async function expectMigratedOnce(store: TestStore): Promise<void> {
  const runs = await store.rows<{ name: string; runs: number }>(
    'api',
    'SELECT name, COUNT(*) AS runs FROM migrations GROUP BY name',
  );
  expect(runs).toHaveLength(API_MIGRATIONS.length);
  expect(runs.filter((run) => run.runs !== 1)).toEqual([]);
}

describe('replicas started together on an empty PostgreSQL database', () => {
  it('open their data sources at the same instant: all open, and the migrations run once', async () => {
    // In one process, so that the three really migrate at once (processes start seconds apart):
    // without the lock two of three fail on a duplicate key of PostgreSQL's catalog.
    const dir = mkdtempSync(join(tmpdir(), 'tps-migrations-'));
    const store = new TestStore('postgres', dir);
    try {
      const options = dataSourceOptions({
        url: await store.url('api'),
        entities: [],
        migrations: API_MIGRATIONS,
      });
      const opened = await Promise.allSettled([0, 1, 2].map(() => openDataSource(options)));
      for (const each of opened) if (each.status === 'fulfilled') await closeDataSource(each.value);
      expect(opened.map((each) => each.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
      await expectMigratedOnce(store);
    } finally {
      await store.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('three API processes started at once all come up', async () => {
    const replicas = new Replicas();
    try {
      const started = await replicas.start(3);
      for (const api of started) {
        const health = await fetch(`${api.url}/health`);
        expect(health.status).toBe(200);
        expect(await health.json()).toMatchObject({ status: 'up', database: { state: 'up' } });
      }
      await expectMigratedOnce(replicas.store);
    } finally {
      await replicas.stop();
    }
  });
});
