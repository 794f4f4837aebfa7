import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT, freePort } from '@tps/testing';

export interface PrismMock {
  url: string;
  stop(): Promise<void>;
}

/** Stoplight Prism mocking an OpenAPI document (the project's own), as a team would run it. */
export async function startPrism(documentFile: string, timeoutMs = 60_000): Promise<PrismMock> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    join(REPO_ROOT, 'node_modules/.bin/prism'),
    ['mock', documentFile, '--host', '127.0.0.1', '--port', String(port), '--errors', 'false'],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } },
  );
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`prism did not start:\n${output}`)), timeoutMs);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
      if (output.includes('Prism is listening')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`prism exited with ${code}:\n${output}`));
    });
  });
  child.stdout?.resume();
  child.stderr?.resume();
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
