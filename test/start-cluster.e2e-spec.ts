import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePortBase, LINK_SECRET, poll, REPO_ROOT, TestStore } from '@tps/testing';

async function status(url: string): Promise<number | undefined> {
  return fetch(url).then(
    (response) => response.status,
    () => undefined,
  );
}

describe('npm run start:cluster', () => {
  let dir: string;
  let store: TestStore;
  /** The launcher's ports: the front on a free base, replicas (+1, +2), the simulator (+50) and metrics (+60, +61). */
  let BASE = 0;

  beforeAll(async () => {
    BASE = await freePortBase([0, 1, 2, 50, 60, 61]);
    dir = mkdtempSync(join(tmpdir(), 'tps-start-cluster-'));
    store = new TestStore('postgres', dir);
  });

  afterAll(async () => {
    await store.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses to start without a PostgreSQL URL', async () => {
    const child = spawn(process.execPath, [join(REPO_ROOT, 'dist/scripts/start-cluster.js')], {
      env: { ...process.env, API_DATABASE_URL: 'sqlite:data/api.sqlite' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect(code).toBe(2);
    expect(output).toMatch(/API_DATABASE_URL/);
  });

  it('starts replicas behind one front on one database, each with its own metrics port; keeps them running; rolls them on SIGHUP; stops them all on SIGTERM', async () => {
    const child = spawn(
      process.execPath,
      [join(REPO_ROOT, 'dist/scripts/start-cluster.js'), '--replicas', '2', '--shards', '1'],
      {
        cwd: dir,
        env: {
          ...process.env,
          NO_COLOR: '1',
          API_DATABASE_URL: await store.url('api'),
          API_PORT: String(BASE),
          SIMULATOR_PORT: String(BASE + 50),
          METRICS_PORT: String(BASE + 60),
          LINK_SECRET,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    const healthy = (port: number): Promise<boolean> =>
      status(`http://127.0.0.1:${port}/health`).then((answer) => answer === 200);
    const waitHealthy = async (port: number): Promise<void> => {
      await poll(`the replica on ${port}`, async () => ((await healthy(port)) ? true : undefined), 60_000);
    };
    try {
      for (const port of [BASE + 1, BASE + 2]) await waitHealthy(port);
      // Through the front, the answers come from both replicas in turn.
      const answers = await Promise.all([0, 1, 2, 3].map(() => status(`http://127.0.0.1:${BASE}/health`)));
      expect(answers).toEqual([200, 200, 200, 200]);
      await poll(
        'the simulator',
        async () => ((await status(`http://127.0.0.1:${BASE + 50}/health`)) === 200 ? true : undefined),
        30_000,
      );
      // Each replica's metrics on a port of its own, named by its replica.
      for (const [n, port] of [BASE + 60, BASE + 61].entries()) {
        const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
        expect(text).toContain(`replica="api-${n + 1}"`);
      }

      // A replica that dies is started again; the launcher and the other replica go on.
      const pid = Number(/\[api-2\] started, pid (\d+)/.exec(output)?.[1]);
      process.kill(pid, 'SIGKILL');
      await poll(
        'api-2 started again',
        async () => (/\[api-2\] stopped by itself/.test(output) ? true : undefined),
        10_000,
      );
      await poll(
        'api-2 serving again',
        async () =>
          (await healthy(BASE + 2)) && output.split('[api-2] started, pid').length === 3 ? true : undefined,
        60_000,
      );
      expect(child.exitCode).toBeNull();

      // SIGHUP: each replica drains and starts again, one at a time.
      const drainsBefore = output.split('SIGTERM: draining').length;
      child.kill('SIGHUP');
      await poll(
        'the rolling restart',
        async () => (/rolling restart done/.test(output) ? true : undefined),
        120_000,
      );
      expect(output.split('SIGTERM: draining').length - drainsBefore).toBe(2);
      const rolled = output.slice(output.indexOf('rolling restart: api-1 drains'));
      expect(rolled.indexOf('api-1 is ready')).toBeLessThan(rolled.indexOf('rolling restart: api-2 drains'));
      for (const port of [BASE + 1, BASE + 2]) expect(await healthy(port)).toBe(true);
    } catch (error) {
      // What the launcher and its apps said is what tells why a wait ran out.
      throw new Error(
        `${error instanceof Error ? error.message : String(error)}\n--- launcher output ---\n${output.slice(-8000)}`,
      );
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    // Each replica said, in a JSON line of its own, that it drained; the last time, on SIGTERM.
    const draining = output
      .split('\n')
      .filter((line) => line.startsWith('{') && line.includes('SIGTERM: draining'))
      .map((line) => (JSON.parse(line) as { replica?: string }).replica);
    expect(draining.slice(-2).sort()).toEqual(['api-1', 'api-2']);
    const runs = await store.rows<{ runs: number }>('api', 'SELECT COUNT(*) AS runs FROM migrations');
    expect(runs[0].runs).toBeGreaterThan(0);
  }, 300_000);
});
