/**
 * `npm run start:cluster -- --replicas 3 --shards 2`: the scale-out form on one machine. Given
 * `API_DATABASE_URL=postgres://…`, it starts that many API replicas on one PostgreSQL database,
 * a round-robin front on one port for callers and terminals, and that many simulator processes
 * (each its own SQLite file, linking through the front); it prefixes their output, and stops them
 * all on Ctrl-C or SIGTERM (each replica drains first).
 *
 * Ports: the front on API_PORT (or PORT), 3000 by default; replicas on the ports after it
 * (3001, 3002, …); simulators from SIMULATOR_PORT, 3100 by default (3100, 3101, …).
 */
import { parseArgs } from 'node:util';
import type { ChildProcess } from 'node:child_process';
import { roundRobinFront } from './round-robin-front';
import { runApp } from './run-app';

/** Replicas drain for up to DRAIN_TIMEOUT_MS (30 s by default); then they are killed. */
const STOP_GRACE_MS = 35_000;

const USAGE = 'usage: API_DATABASE_URL=postgres://… npm run start:cluster -- [--replicas N] [--shards M]\n';

function count(value: string, name: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1 || parsed > 32) {
    process.stderr.write(`--${name} must be a whole number from 1 to 32\n${USAGE}`);
    process.exit(2);
  }
  return parsed;
}

const { values } = parseArgs({
  options: { replicas: { type: 'string', default: '2' }, shards: { type: 'string', default: '1' } },
});
const replicas = count(values.replicas, 'replicas');
const shards = count(values.shards, 'shards');
const databaseUrl = process.env.API_DATABASE_URL ?? '';
if (!/^postgres(ql)?:\/\//.test(databaseUrl)) {
  process.stderr.write(`replicas share one PostgreSQL database: set API_DATABASE_URL\n${USAGE}`);
  process.exit(2);
}
const frontPort = Number(process.env.API_PORT ?? process.env.PORT ?? '3000');
const simulatorPort = Number(process.env.SIMULATOR_PORT ?? '3100');
const replicaPorts = Array.from({ length: replicas }, (_, n) => frontPort + 1 + n);
const frontUrl = `http://127.0.0.1:${frontPort}`;

const apps = new Map<string, ChildProcess>();
for (const [n, port] of replicaPorts.entries()) {
  apps.set(
    `api-${n + 1}`,
    // Every replica knows how the fleet is split, so that each share's simulator gets its terminals,
    // and keeps its name across restarts, so that it takes its own delivery leases back at once.
    runApp(`api-${n + 1}`, 'apps/api/src/main.js', {
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      FLEET_SHARES: String(shards),
      REPLICA_ID: `api-${n + 1}`,
    }),
  );
}
for (let n = 0; n < shards; n++) {
  apps.set(
    `terminal-${n + 1}`,
    runApp(`terminal-${n + 1}`, 'apps/terminal-simulator/src/main.js', {
      PORT: String(simulatorPort + n),
      API_URL: frontUrl,
      DATABASE_URL: `sqlite:data/terminal-${n + 1}.sqlite`,
      // One fleet share per simulator process when there are several (contract: one simulator per share).
      ...(shards > 1 ? { FLEET_SHARE: `shard-${n + 1}` } : {}),
    }),
  );
}
const front = roundRobinFront(replicaPorts).listen(frontPort, () =>
  process.stdout.write(`[front] ${frontUrl} → replicas on ports ${replicaPorts.join(', ')}\n`),
);

let stopping = false;

function stop(code: number): void {
  if (stopping) return;
  stopping = true;
  front.close();
  for (const child of apps.values()) child.kill('SIGTERM');
  setTimeout(() => {
    for (const child of apps.values()) child.kill('SIGKILL');
  }, STOP_GRACE_MS).unref();
  const exitWhenAllStopped = (): void => {
    if (apps.size === 0) process.exit(code);
  };
  exitWhenAllStopped();
  for (const child of apps.values()) child.once('exit', () => setImmediate(exitWhenAllStopped));
}

for (const [name, child] of apps) {
  child.on('exit', (code, signal) => {
    apps.delete(name);
    if (stopping) return;
    // One replica or shard gone leaves the cluster serving; none of the replicas left does not.
    process.stderr.write(`[${name}] stopped by itself (${signal ?? `exit code ${code}`})\n`);
    if (![...apps.keys()].some((each) => each.startsWith('api-'))) stop(1);
  });
}
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
