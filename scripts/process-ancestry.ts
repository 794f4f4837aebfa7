import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** The parent of a process of this machine, or undefined once it is gone. */
function parentOf(pid: number): number | undefined {
  try {
    // Linux: the field after the command name, which sits in parentheses and may hold spaces.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    try {
      // Elsewhere (macOS): ps knows it.
      const ppid = Number(
        execFileSync('ps', ['-o', 'ppid=', '-p', String(pid)], { encoding: 'utf8' }).trim(),
      );
      return Number.isInteger(ppid) && ppid > 0 ? ppid : undefined;
    } catch {
      return undefined;
    }
  }
}

/** Whether `pid` is `ancestor` or one of its children, grandchildren, … */
export function isSameOrDescendant(pid: number, ancestor: number): boolean {
  for (let at: number | undefined = pid, hops = 0; at !== undefined && at > 1 && hops < 64; hops++) {
    if (at === ancestor) return true;
    at = parentOf(at);
  }
  return false;
}
