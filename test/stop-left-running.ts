import { RUN_TAG, leftRunning } from './left-running';

/**
 * The end-to-end projects' globalTeardown: what a suite left running is killed and named, so that
 * the run ends (a leftover process keeps jest in band alive) and the leak is seen.
 */
export default function stopLeftRunning(): void {
  const tag = process.env[RUN_TAG];
  if (tag === undefined) return;
  for (const { pid, command } of leftRunning(tag)) {
    process.stderr.write(`left running by a suite, killed: ${pid} ${command}\n`);
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // ended meanwhile
    }
  }
}
