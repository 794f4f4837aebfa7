import { spawn } from 'node:child_process';
import { isSameOrDescendant } from './process-ancestry';

describe('isSameOrDescendant', () => {
  it('knows a process, its child and its grandchild, and nobody else', async () => {
    // A shell that starts a sleeping grandchild and prints its pid.
    const child = spawn('sh', ['-c', 'sleep 30 & echo $!; wait'], {
      stdio: ['ignore', 'pipe', 'ignore'],
      detached: true,
    });
    try {
      const grandchild = await new Promise<number>((resolve) =>
        child.stdout.once('data', (chunk: Buffer) => resolve(Number(chunk.toString('utf8').trim()))),
      );
      expect(isSameOrDescendant(process.pid, process.pid)).toBe(true);
      expect(isSameOrDescendant(child.pid!, process.pid)).toBe(true);
      expect(isSameOrDescendant(grandchild, process.pid)).toBe(true);
      expect(isSameOrDescendant(grandchild, child.pid!)).toBe(true);
      expect(isSameOrDescendant(process.pid, child.pid!)).toBe(false);
      expect(isSameOrDescendant(process.ppid, process.pid)).toBe(false);
    } finally {
      // The shell and its sleep, its own process group.
      process.kill(-child.pid!, 'SIGKILL');
    }
  });
});
