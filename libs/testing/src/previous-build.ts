import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from './app-process';

/**
 * The built apps of the commit before this one (`HEAD~1`), for a drill that runs the previous
 * version and this one side by side (a rolling deploy), or of the commit `ref` names: its tree is taken with `git archive` into
 * a folder of the machine's temporary directory named by the commit, with this checkout's
 * node_modules, and built there once (`npm run build`); later runs for the same commit reuse it.
 * TEST_PREVIOUS_BUILD names a checkout of HEAD~1 already built instead (a shallow clone has no HEAD~1).
 * Resolves to the folder holding its `dist/`.
 */
export function previousBuild(ref = 'HEAD~1'): string {
  const given = process.env.TEST_PREVIOUS_BUILD;
  if (ref === 'HEAD~1' && given !== undefined && given !== '') return given;
  let commit: string;
  try {
    commit = execFileSync('git', ['rev-parse', ref], { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
  } catch (error) {
    throw new Error(
      `${ref} is not in this checkout (${String(error)}): set TEST_PREVIOUS_BUILD to a built checkout of it`,
    );
  }
  const root = join(tmpdir(), `tps-build-${commit}`);
  if (existsSync(join(root, 'dist/apps/api/src/main.js'))) return root;
  // Built beside, then moved in place: a build cut half-way is never taken for a whole one.
  const building = `${root}.building-${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  mkdirSync(building, { recursive: true });
  execFileSync('sh', ['-c', `git archive ${commit} | tar -x -C '${building}'`], { cwd: REPO_ROOT });
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(building, 'node_modules'));
  execFileSync('npm', ['run', 'build'], {
    cwd: building,
    stdio: 'ignore',
    env: { ...process.env, NO_COLOR: '1' },
  });
  rmSync(root, { recursive: true, force: true });
  renameSync(building, root);
  return root;
}
