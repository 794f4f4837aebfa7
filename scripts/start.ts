/**
 * `npm start`: runs the API and the terminal simulator together on their embedded SQLite files,
 * prefixes their output, and stops both when either stops or on Ctrl-C.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

const root = join(__dirname, '..');
const apiPort = process.env.API_PORT ?? '3000';
const simulatorPort = process.env.SIMULATOR_PORT ?? '3100';

function run(name: string, entry: string, env: NodeJS.ProcessEnv): ChildProcess {
  const defined = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined));
  const child = spawn(process.execPath, [join(root, entry)], {
    env: { ...process.env, ...defined },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const prefix = (chunk: Buffer): string =>
    chunk
      .toString('utf8')
      .split('\n')
      .filter((line) => line.length > 0)
      .map((line) => `[${name}] ${line}\n`)
      .join('');
  child.stdout?.on('data', (chunk: Buffer) => process.stdout.write(prefix(chunk)));
  child.stderr?.on('data', (chunk: Buffer) => process.stderr.write(prefix(chunk)));
  return child;
}

const api = run('api', 'apps/api/src/main.js', { PORT: apiPort, DATABASE_URL: process.env.API_DATABASE_URL });
const simulator = run('terminal', 'apps/terminal-simulator/src/main.js', {
  PORT: simulatorPort,
  API_URL: process.env.API_URL ?? `http://127.0.0.1:${apiPort}`,
  DATABASE_URL: process.env.SIMULATOR_DATABASE_URL,
});

let stopping = false;
function stop(code: number): void {
  if (stopping) return;
  stopping = true;
  for (const child of [api, simulator]) child.kill('SIGTERM');
  setTimeout(() => process.exit(code), 3000).unref();
}

for (const child of [api, simulator]) child.on('exit', (code) => stop(code ?? 0));
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
