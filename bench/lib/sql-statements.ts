import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AppProcess } from '@tps/testing';

/**
 * The apps' statement counter: started with SQL_STATEMENT_COUNT=1, an app counts every statement
 * SQLite runs on its connection and, on SIGUSR2, writes one line `sql statements: <N>` to stdout.
 */
export const SQL_STATEMENT_COUNT_ENV = { SQL_STATEMENT_COUNT: '1' };

const SIGUSR2 = 12;
const LINE = /^sql statements: (\d+)\r?\n/gm;

/**
 * Whether the apps built under `root` (dist/apps, dist/libs) have the counter at all. Apps built
 * before it must not get SIGUSR2: Nest's enableShutdownHooks() listens to it and shuts them down.
 */
export function appsHaveStatementCounter(root: string): boolean {
  const search = (dir: string): boolean => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return false;
    }
    return entries.some((entry) =>
      entry.isDirectory()
        ? search(join(dir, entry.name))
        : entry.name.endsWith('.js') &&
          readFileSync(join(dir, entry.name), 'utf8').includes('SQL_STATEMENT_COUNT'),
    );
  };
  return (
    search(join(root, 'dist/libs')) ||
    search(join(root, 'dist/apps/api')) ||
    search(join(root, 'dist/apps/terminal-simulator'))
  );
}

/**
 * Whether a process has a handler for signal `signal`, from its /proc status text (SigCgt, a hex
 * mask with bit n-1 for signal n). An app built before the counter has none, and SIGUSR2's
 * default action would end it: it is sent only to a process that catches it (a Nest app with
 * shutdown hooks catches it too, hence appsHaveStatementCounter).
 */
export function catchesSignal(status: string, signal: number): boolean {
  const match = /^SigCgt:\s+([0-9a-f]+)$/im.exec(status);
  if (match === null) return false;
  return ((BigInt(`0x${match[1]}`) >> BigInt(signal - 1)) & 1n) === 1n;
}

/** The count on the newest complete `sql statements: <N>` line of `output`, if any. */
export function newestStatementCount(output: string): number | undefined {
  let newest: number | undefined;
  for (const match of output.matchAll(LINE)) newest = Number(match[1]);
  return newest;
}

/**
 * The statements an app has run so far, asked for with SIGUSR2 and read from its output; undefined
 * when the app has no counter (no SIGUSR2 handler, or no line within `timeoutMs`).
 */
export async function readStatementCount(app: AppProcess, timeoutMs = 2000): Promise<number | undefined> {
  const pid = app.pid;
  if (pid === undefined) return undefined;
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return undefined;
  }
  if (!catchesSignal(status, SIGUSR2)) return undefined;
  const from = app.log.length;
  process.kill(pid, 'SIGUSR2');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const count = newestStatementCount(app.log.slice(from));
    if (count !== undefined) return count;
    if (Date.now() > deadline) return undefined;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
