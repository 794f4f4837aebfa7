import { API_MIGRATIONS } from '@tps/database';
import { Replicas } from './cluster-replicas';

describe('replicas started together on an empty PostgreSQL database', () => {
  let replicas: Replicas;

  beforeAll(() => {
    replicas = new Replicas();
  });

  afterAll(async () => {
    await replicas.stop();
  });

  it('all come up, and the migrations run once', async () => {
    const started = await replicas.start(3);

    for (const api of started) {
      const health = await fetch(`${api.url}/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({ status: 'up', database: 'up' });
    }
    const runs = await replicas.store.rows<{ name: string; runs: number }>(
      'api',
      'SELECT name, COUNT(*) AS runs FROM migrations GROUP BY name',
    );
    expect(runs).toHaveLength(API_MIGRATIONS.length);
    expect(runs.filter((run) => run.runs !== 1)).toEqual([]);
  });
});
