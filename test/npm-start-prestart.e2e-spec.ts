import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort, REPO_ROOT, Stack } from '@tps/testing';

const run = promisify(execFile);
const PRESTART = join(REPO_ROOT, 'scripts/prestart.js');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const treeStamp = require('../scripts/tree-stamp.js') as {
  STAMP: string;
  treeHash: (root: string) => string | undefined;
  isStamped: (root: string, hash: string) => boolean;
  writeStamp: (root: string, hash: string) => void;
};

/** `npm start`'s first step, as npm runs it: its exit code and output. */
function prestart(env: Record<string, string>): Promise<{ code: number; output: string }> {
  return run(process.execPath, [PRESTART], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    timeout: 30_000,
  }).then(
    ({ stdout, stderr }) => ({ code: 0, output: stdout + stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({
      code: error.code,
      output: error.stdout + error.stderr,
    }),
  );
}

function listening(): Promise<Server> {
  return new Promise((resolve) => {
    const server = createServer((socket) => socket.destroy());
    server.listen(0, () => resolve(server));
  });
}

const builtAt = (): number => statSync(join(REPO_ROOT, 'dist/build-stamp.json')).mtimeMs;

describe('npm start, before it builds anything', () => {
  it('refuses at once, building nothing, when a sandbox of this checkout already has the API port', async () => {
    const running = await Stack.start({ withoutSimulator: true });
    try {
      const before = builtAt();
      const answer = await prestart({
        API_PORT: String(running.api.port),
        SIMULATOR_PORT: String(await freePort()),
      });
      expect(answer.code).toBe(1);
      expect(answer.output).toContain(
        `a sandbox from this checkout already runs on port ${running.api.port} (API_PORT; pid ${running.api.pid})`,
      );
      // Checked before the build, not after it: dist/ (which that sandbox reads) is untouched.
      expect(builtAt()).toBe(before);
    } finally {
      await running.stop();
    }
  });

  it('says which port another program holds, and stops there', async () => {
    const busy = await listening();
    try {
      const { port } = busy.address() as AddressInfo;
      const before = builtAt();
      const answer = await prestart({ API_PORT: String(await freePort()), SIMULATOR_PORT: String(port) });
      expect(answer.code).toBe(1);
      expect(answer.output).toMatch(new RegExp(`port ${port} \\(SIMULATOR_PORT\\) is in use`));
      expect(builtAt()).toBe(before);
    } finally {
      await new Promise((done) => busy.close(done));
    }
  });

  it('builds nothing when no file git keeps changed since the build it stamped', async () => {
    const hash = treeStamp.treeHash(REPO_ROOT);
    expect(hash).toBeDefined();
    treeStamp.writeStamp(REPO_ROOT, hash!);
    const before = builtAt();
    const answer = await prestart({
      API_PORT: String(await freePort()),
      SIMULATOR_PORT: String(await freePort()),
    });
    expect(answer).toMatchObject({ code: 0 });
    expect(answer.output).toContain('the build is current');
    expect(builtAt()).toBe(before);
  });
});

describe('the tree stamp', () => {
  let dir: string;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tps-tree-'));
    await run('git', ['init', '-q'], { cwd: dir });
    writeFileSync(join(dir, '.gitignore'), 'dist/\n*.log\n');
    writeFileSync(join(dir, 'kept.ts'), 'one');
    mkdirSync(join(dir, 'dist'));
  });

  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('changes with a file git keeps, tracked or new, and not with one it ignores', async () => {
    const first = treeStamp.treeHash(dir)!;
    treeStamp.writeStamp(dir, first);
    expect(treeStamp.isStamped(dir, treeStamp.treeHash(dir)!)).toBe(true);
    writeFileSync(join(dir, 'sandbox.log'), 'ignored');
    writeFileSync(join(dir, 'dist', 'main.js'), 'ignored');
    expect(treeStamp.treeHash(dir)).toBe(first);
    writeFileSync(join(dir, 'kept.ts'), 'two');
    expect(treeStamp.isStamped(dir, treeStamp.treeHash(dir)!)).toBe(false);
    writeFileSync(join(dir, 'kept.ts'), 'one');
    writeFileSync(join(dir, 'new.ts'), 'new');
    expect(treeStamp.treeHash(dir)).not.toBe(first);
  });

  it('is none outside a git checkout: every start builds', () => {
    expect(treeStamp.treeHash(tmpdir())).toBeUndefined();
  });
});
