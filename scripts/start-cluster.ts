/**
 * `npm run start:cluster -- --replicas 3 --shards 2`: the scale-out form on one machine. Given
 * `API_DATABASE_URL=postgres://…`, it starts that many API replicas on one PostgreSQL database,
 * a front on one port for callers and terminals (cluster-front.ts: by the terminal's serial, as
 * the compose profile's balancer), and that many simulator processes (each its own SQLite file,
 * linking through the front); it prefixes their output.
 *
 * It keeps them running: an app that exits by itself is started again (supervised-app.ts). On
 * SIGHUP (`kill -HUP <pid>`, the pid it prints) it restarts the replicas one at a time, each
 * drained first (SIGTERM) and started again from the build on disk, the next only once the new
 * one's `GET /health` answers 200: `npm run build`, then `kill -HUP`, deploys a new version with
 * no downtime. It stops only when asked: Ctrl-C or SIGTERM, each replica draining first.
 *
 * Ports: the front on API_PORT (or PORT), 3000 by default; replicas on the ports after it
 * (3001, 3002, …); simulators from SIMULATOR_PORT, 3100 by default (3100, 3101, …); with
 * METRICS_PORT, each replica's metrics from it (api-1 on METRICS_PORT, api-2 on the next, …).
 * CLUSTER_BUILD_DIR: the build the apps start from (default: this checkout's dist/).
 */
import { parseArgs } from 'node:util';
import { ClusterFront } from './cluster-front';
import { BUILD_ROOT, runApp } from './run-app';
import { SupervisedApp } from './supervised-app';

/** Replicas drain for up to DRAIN_TIMEOUT_MS (25 s by default); then they are killed. */
const STOP_GRACE_MS = 30_000;
/** How long a replica started again has to answer its `GET /health` before a rolling restart stops. */
const READY_WITHIN_MS = 120_000;
const READY_POLL_MS = 250;

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
const replicaCount = count(values.replicas, 'replicas');
const shardCount = count(values.shards, 'shards');
const databaseUrl = process.env.API_DATABASE_URL ?? '';
if (!/^postgres(ql)?:\/\//.test(databaseUrl)) {
  process.stderr.write(`replicas share one PostgreSQL database: set API_DATABASE_URL\n${USAGE}`);
  process.exit(2);
}
const frontPort = Number(process.env.API_PORT ?? process.env.PORT ?? '3000');
const simulatorPort = Number(process.env.SIMULATOR_PORT ?? '3100');
const metricsPort = process.env.METRICS_PORT === undefined ? undefined : Number(process.env.METRICS_PORT);
const build = process.env.CLUSTER_BUILD_DIR ?? BUILD_ROOT;
const replicaPorts = Array.from({ length: replicaCount }, (_, n) => frontPort + 1 + n);
const frontUrl = `http://127.0.0.1:${frontPort}`;

const say = (line: string): boolean => process.stderr.write(`${line}\n`);

const replicas = replicaPorts.map(
  (port, n) =>
    new SupervisedApp(
      `api-${n + 1}`,
      () =>
        runApp(
          `api-${n + 1}`,
          'apps/api/src/main.js',
          {
            PORT: String(port),
            DATABASE_URL: databaseUrl,
            DATABASE_DIRECT_URL: process.env.API_DATABASE_DIRECT_URL,
            // Every replica knows how the fleet is split, so that each share's simulator gets its
            // terminals, and keeps its name across restarts, so that it takes its own delivery
            // leases back at once.
            FLEET_SHARES: String(shardCount),
            REPLICA_ID: `api-${n + 1}`,
            METRICS_PORT: metricsPort === undefined ? undefined : String(metricsPort + n),
          },
          build,
        ),
      say,
    ),
);
const shards = Array.from(
  { length: shardCount },
  (_, n) =>
    new SupervisedApp(
      `terminal-${n + 1}`,
      () =>
        runApp(
          `terminal-${n + 1}`,
          'apps/terminal-simulator/src/main.js',
          {
            PORT: String(simulatorPort + n),
            API_URL: frontUrl,
            DATABASE_URL: `sqlite:data/terminal-${n + 1}.sqlite`,
            // One fleet share per simulator process when there are several (contract: one simulator per share).
            ...(shardCount > 1 ? { FLEET_SHARE: `shard-${n + 1}` } : {}),
          },
          build,
        ),
      say,
    ),
);
for (const app of [...replicas, ...shards]) app.start();
const front = new ClusterFront(replicaPorts).listen(frontPort, () => {
  say(`[front] ${frontUrl} → replicas on ports ${replicaPorts.join(', ')}`);
  if (metricsPort !== undefined)
    say(
      `[cluster] metrics of api-1 … api-${replicaCount} on ports ${metricsPort} … ${metricsPort + replicaCount - 1}`,
    );
  say(`[cluster] kill -HUP ${process.pid}: restart the replicas one at a time, from the build on disk`);
});

async function healthy(port: number): Promise<boolean> {
  return fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(READY_POLL_MS * 4) }).then(
    (response) => response.status === 200,
    () => false,
  );
}

let stopping = false;
let rolling = false;
let rollAgain = false;

/** One replica at a time: drained, started again from the build on disk, then waited for. */
async function roll(): Promise<void> {
  if (rolling) {
    rollAgain = true;
    say('[cluster] a rolling restart is under way: another follows it');
    return;
  }
  rolling = true;
  try {
    do {
      rollAgain = false;
      for (const [n, replica] of replicas.entries()) {
        if (stopping) return;
        say(`[cluster] rolling restart: ${replica.name} drains and starts again`);
        await replica.restart(STOP_GRACE_MS);
        const readyBy = Date.now() + READY_WITHIN_MS;
        while (!stopping && !(await healthy(replicaPorts[n]))) {
          if (Date.now() > readyBy) {
            say(
              `[cluster] ${replica.name} is not ready after ${READY_WITHIN_MS} ms: the rolling restart stops here`,
            );
            return;
          }
          await new Promise((resolve) => setTimeout(resolve, READY_POLL_MS));
        }
        say(`[cluster] rolling restart: ${replica.name} is ready`);
      }
      say('[cluster] rolling restart done');
    } while (rollAgain && !stopping);
  } finally {
    rolling = false;
  }
}

async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  front.close();
  await Promise.all([...replicas, ...shards].map((app) => app.stop(STOP_GRACE_MS)));
  process.exit(0);
}

process.on('SIGHUP', () => void roll());
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
