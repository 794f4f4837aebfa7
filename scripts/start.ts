/**
 * `npm start`: runs the API and the terminal simulator together on their embedded SQLite files,
 * passes their log lines on, and stops both when either stops or on Ctrl-C. It exits non-zero when
 * an app stopped by itself (it could not start, e.g. its port is taken, or it crashed), so a CI
 * step or a supervisor sees the failure; 0 after Ctrl-C or SIGTERM.
 *
 * Ports: API_PORT (or PORT when API_PORT is unset, as most platforms set it) for the API, 3000 by
 * default; SIMULATOR_PORT for the simulator, 3100 by default. Once the sandbox is ready it prints
 * one line with the URLs to open. On a terminal the logs are lines for people (LOG_FORMAT=pretty)
 * unless LOG_FORMAT says otherwise; piped to a file or a collector, JSON.
 */
import type { ChildProcess } from 'node:child_process';
import { runApp } from './run-app';

const apiPort = process.env.API_PORT ?? process.env.PORT ?? '3000';
const simulatorPort = process.env.SIMULATOR_PORT ?? '3100';
/**
 * After this long a child still running is killed: the API's drain (DRAIN_TIMEOUT_MS, 25 s by
 * default) and a margin, so that a container stopped with `docker stop -t 40` drains as one app
 * per container does. A second Ctrl-C or SIGTERM passes on at once: each app then stops without
 * waiting (contract, "Several replicas": a second signal stops at once).
 */
const STOP_GRACE_MS = Number(process.env.DRAIN_TIMEOUT_MS ?? 25_000) + 5000;
const READY_POLL_MS = 500;

if (process.stdout.isTTY && process.env.LOG_FORMAT === undefined) process.env.LOG_FORMAT = 'pretty';

const apps = new Map<string, ChildProcess>([
  [
    'api',
    runApp('api', 'apps/api/src/main.js', {
      PORT: apiPort,
      DATABASE_URL: process.env.API_DATABASE_URL,
      DATABASE_DIRECT_URL: process.env.API_DATABASE_DIRECT_URL,
    }),
  ],
  [
    'terminal',
    runApp('terminal', 'apps/terminal-simulator/src/main.js', {
      PORT: simulatorPort,
      API_URL: process.env.API_URL ?? `http://127.0.0.1:${apiPort}`,
      DATABASE_URL: process.env.SIMULATOR_DATABASE_URL,
      DATABASE_DIRECT_URL: process.env.SIMULATOR_DATABASE_DIRECT_URL,
    }),
  ],
]);

let exitCode: number | undefined;

/** Stops every app still running; the launcher exits with `code` once they all have. */
function stop(code: number): void {
  if (exitCode !== undefined) {
    for (const child of apps.values()) child.kill('SIGTERM');
    return;
  }
  exitCode = code;
  for (const child of apps.values()) child.kill('SIGTERM');
  setTimeout(() => {
    for (const child of apps.values()) child.kill('SIGKILL');
  }, STOP_GRACE_MS).unref();
}

for (const [name, child] of apps) {
  child.on('exit', (code, signal) => {
    apps.delete(name);
    if (exitCode === undefined) {
      // Nobody asked it to stop: it failed to start or crashed.
      process.stderr.write(`[${name}] stopped by itself (${signal ?? `exit code ${code}`}); stopping\n`);
      stop(code !== null && code !== 0 ? code : 1);
    }
    if (apps.size === 0) process.exit(exitCode);
  });
}
/** Once `GET /ready` answers 200: the line that says where to go. */
async function announceWhenReady(): Promise<void> {
  const api = `http://localhost:${apiPort}`;
  while (exitCode === undefined) {
    const status = await fetch(`http://127.0.0.1:${apiPort}/ready`, {
      signal: AbortSignal.timeout(2000),
    }).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) {
      const consoleUrl = process.env.PROFILE === 'production' ? '' : ` · console ${api}/console`;
      process.stdout.write(
        `sandbox ready: API ${api} · docs ${api}/docs${consoleUrl} · simulator http://localhost:${simulatorPort}\n`,
      );
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, READY_POLL_MS).unref());
  }
}

void announceWhenReady();
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
