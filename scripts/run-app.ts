import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

const root = join(__dirname, '..');

/** One of the built apps as a child process, its output prefixed with its name. */
export function runApp(name: string, entry: string, env: NodeJS.ProcessEnv): ChildProcess {
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
