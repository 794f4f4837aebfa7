import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, poll, REPO_ROOT } from '@tps/testing';

/**
 * `npm start` in a terminal: its output is read by a person, so the apps log lines for people, not
 * JSON (piped to a file or a collector, they log JSON: readiness-and-start.e2e-spec.ts). The
 * terminal is a real pseudo-terminal, util-linux's `script`, and Ctrl-C stops the sandbox.
 */
describe('npm start on a terminal', () => {
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'tps-tty-'));
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('logs lines for people, names the URLs once ready, and stops on Ctrl-C', async () => {
    const [api, simulator] = [await freePort(), await freePort()];
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      API_PORT: String(api),
      SIMULATOR_PORT: String(simulator),
      API_DATABASE_URL: `sqlite:${join(dir, 'api.sqlite')}`,
      SIMULATOR_DATABASE_URL: `sqlite:${join(dir, 'terminal.sqlite')}`,
    };
    delete env.LOG_FORMAT;
    // `exec`: the shell `script` runs the command with is replaced by the sandbox. Otherwise a
    // shell that does not exec a last command itself (dash, the /bin/sh `script` falls back to
    // when SHELL is unset, as in CI) receives the Ctrl-C too and dies of it, whatever the sandbox does.
    const start = `exec ${process.execPath} ${join(REPO_ROOT, 'dist/scripts/start.js')}`;
    const terminal = spawn('script', ['-qefc', start, '/dev/null'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    terminal.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => terminal.once('exit', resolve));
    try {
      await poll(
        'the start-up line',
        async () => (output.includes('sandbox ready:') ? true : undefined),
        60_000,
      );
    } finally {
      terminal.stdin.write('\x03');
    }
    expect(await exited).toBe(0);
    const lines = output.split(/\r?\n/).filter((line) => line.trim() !== '');
    expect(lines.filter((line) => line.startsWith('[api] ')).length).toBeGreaterThan(0);
    expect(lines.filter((line) => line.startsWith('[terminal] ')).length).toBeGreaterThan(0);
    expect(lines.filter((line) => line.includes('{"level"'))).toEqual([]);
    expect(output).toContain(`sandbox ready: API http://localhost:${api}`);
  }, 120_000);
});
