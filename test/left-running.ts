import { readFileSync, readdirSync } from 'node:fs';

/**
 * Every process a test started carries this variable, inherited from jest (apps, receivers,
 * browsers), with one value per run, so the run's teardown can tell its own from anyone else's.
 */
export const RUN_TAG = 'TPS_TEST_RUN';

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined; // gone meanwhile, or not ours to read
  }
}

/**
 * The processes of this run still running, jest and its workers aside: those a suite could not
 * stop, such as the apps of a stack whose start outlived its hook's timeout. They would keep a
 * run in band (`--runInBand`) from ever exiting.
 */
export function leftRunning(tag: string): Array<{ pid: number; command: string }> {
  const left: Array<{ pid: number; command: string }> = [];
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    const environ = read(`/proc/${pid}/environ`);
    if (environ === undefined || !environ.split('\0').includes(`${RUN_TAG}=${tag}`)) continue;
    const command = (read(`/proc/${pid}/cmdline`) ?? '').split('\0').join(' ').trim();
    if (command.includes('/jest')) continue;
    left.push({ pid, command });
  }
  return left;
}
