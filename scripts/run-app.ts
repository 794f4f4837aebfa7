import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

/** This checkout's build: `dist/`. */
export const BUILD_ROOT = join(__dirname, '..');

/**
 * One of the built apps (of `root`, this checkout's build by default) as a child process, its output passed on in whole lines, never a chunk
 * cut mid-line. A JSON line already names its app and replica; a line for people
 * (LOG_FORMAT=pretty) gets the process's name in front.
 */
export function runApp(
  name: string,
  entry: string,
  env: NodeJS.ProcessEnv,
  root: string = BUILD_ROOT,
): ChildProcess {
  const defined = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined));
  const child = spawn(process.execPath, [join(root, entry)], {
    env: { ...process.env, ...defined },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const prefix = process.env.LOG_FORMAT === 'pretty' ? `[${name}] ` : '';
  for (const [from, to] of [
    [child.stdout, process.stdout],
    [child.stderr, process.stderr],
  ] as const) {
    if (from !== null)
      createInterface({ input: from, crlfDelay: Infinity }).on('line', (line) =>
        to.write(`${prefix}${line}\n`),
      );
  }
  return child;
}
