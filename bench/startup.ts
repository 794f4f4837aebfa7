import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { APPS_ROOT, freePort, poll } from '@tps/testing';

/**
 * Milliseconds from `npm start`'s launcher (after the build) until both apps answer /health and
 * the seeded terminals are linked. A fresh data folder each time: migrations and seed included.
 * The launcher is the one of the apps timed (BENCH_APPS_ROOT, this checkout by default).
 */
export async function measureStartup(): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'tps-startup-'));
  const apiPort = await freePort();
  const simulatorPort = await freePort();
  const started = Date.now();
  const child = spawn(process.execPath, [join(APPS_ROOT, 'dist/scripts/start.js')], {
    env: {
      ...process.env,
      API_PORT: String(apiPort),
      SIMULATOR_PORT: String(simulatorPort),
      API_DATABASE_URL: `sqlite:${join(dir, 'api.sqlite')}`,
      SIMULATOR_DATABASE_URL: `sqlite:${join(dir, 'terminal.sqlite')}`,
    },
    stdio: 'ignore',
  });
  try {
    await poll(
      'both apps up and the seeded terminals linked',
      async () => {
        const api = (await (await fetch(`http://127.0.0.1:${apiPort}/health`)).json()) as {
          linked_terminals: number;
        };
        const simulator = await fetch(`http://127.0.0.1:${simulatorPort}/health`);
        return api.linked_terminals >= 3 && simulator.ok ? true : undefined;
      },
      30_000,
    );
    return Date.now() - started;
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  }
}
