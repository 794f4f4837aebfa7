import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/**
 * The soft limit of open file descriptors of this process (`ulimit -n`), or undefined when none
 * could be read or there is none. Linux lists it in /proc/self/limits; elsewhere a shell started
 * by this process inherits the limit and prints it.
 */
export function readDescriptorLimit(): number | undefined {
  try {
    return parseProcLimits(readFileSync('/proc/self/limits', 'utf8'));
  } catch {
    try {
      return parseLimit(execFileSync('sh', ['-c', 'ulimit -n'], { encoding: 'utf8' }));
    } catch {
      return undefined;
    }
  }
}

/** The soft "Max open files" of a /proc/<pid>/limits text. */
export function parseProcLimits(text: string): number | undefined {
  const line = text.split('\n').find((row) => row.startsWith('Max open files'));
  if (line === undefined) throw new Error('no "Max open files" line');
  return parseLimit(line.slice('Max open files'.length).trim().split(/\s+/)[0]);
}

function parseLimit(value: string): number | undefined {
  const trimmed = value.trim();
  if (trimmed === 'unlimited') return undefined;
  const limit = Number(trimmed);
  if (!Number.isInteger(limit) || limit <= 0) throw new Error(`not a descriptor limit: ${trimmed}`);
  return limit;
}
