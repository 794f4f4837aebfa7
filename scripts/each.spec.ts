import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = join(__dirname, '..');

function each(...commands: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return run('bash', [join(ROOT, 'scripts/each.sh'), ...commands]).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    ({ code, stdout, stderr }: { code: number; stdout: string; stderr: string }) => ({
      code,
      stdout,
      stderr,
    }),
  );
}

describe('scripts/each.sh', () => {
  it('runs every command after one that failed, names it and exits 1', async () => {
    const answer = await each('echo first', 'exit 3', 'echo third');
    expect(answer).toEqual({ code: 1, stdout: 'first\nthird\n', stderr: 'failed: exit 3\n' });
  });

  it('exits 0 when every command passed', async () => {
    expect(await each('true', 'echo ok')).toEqual({ code: 0, stdout: 'ok\n', stderr: '' });
  });

  it('is what `npm test` runs its jest projects with', () => {
    const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(scripts.test).toBe(
      "bash scripts/each.sh 'bash scripts/checks.sh' 'jest --selectProjects unit e2e' 'jest --selectProjects e2e-alone --runInBand'",
    );
  });
});
