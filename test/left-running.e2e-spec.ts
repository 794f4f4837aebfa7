import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { RUN_TAG, leftRunning } from './left-running';
import stopLeftRunning from './stop-left-running';

/** The run's teardown finds and kills what a suite left running, and only what its own run started. */
describe('processes left running by a suite', () => {
  it('are found by the run tag they inherited, then killed by the teardown', async () => {
    const tag = randomUUID();
    const ours = spawn('sleep', ['60'], { env: { ...process.env, [RUN_TAG]: tag } });
    const others = spawn('sleep', ['60'], { env: { ...process.env, [RUN_TAG]: randomUUID() } });
    const exited = new Promise((resolve) => ours.once('exit', (_code, signal) => resolve(signal)));
    try {
      await new Promise((resolve) => setTimeout(resolve, 200)); // exec'd, its environ readable
      expect(leftRunning(tag).map(({ pid }) => pid)).toEqual([ours.pid]);

      const runTag = process.env[RUN_TAG];
      process.env[RUN_TAG] = tag;
      try {
        stopLeftRunning();
      } finally {
        if (runTag === undefined) delete process.env[RUN_TAG];
        else process.env[RUN_TAG] = runTag;
      }
      expect(await exited).toBe('SIGKILL');
      expect(others.exitCode === null && others.signalCode === null).toBe(true);
    } finally {
      ours.kill('SIGKILL');
      others.kill('SIGKILL');
    }
  });
});
