import { randomUUID } from 'node:crypto';
import { APPS_ROOT, REPO_ROOT } from '../libs/testing/src/app-process';
import { staleBuild } from '../libs/testing/src/build-stamp';
import { dropLeftOverTestDatabases } from '../libs/testing/src/test-store';
import { RUN_TAG } from './left-running';

/**
 * The e2e project's globalSetup: the suites start the apps built in dist/ (this checkout's, or
 * BENCH_APPS_ROOT's), so they refuse to run against a build older than the sources. It also
 * clears the PostgreSQL test databases that killed runs left behind, and tags the run: the
 * processes its suites start inherit the tag, which the teardown looks for (stop-left-running.ts).
 */
export default async function distIsCurrent(): Promise<void> {
  // Always a tag of its own: one inherited from an enclosing run would let this run's teardown
  // kill that run's processes.
  process.env[RUN_TAG] = randomUUID();
  for (const root of new Set([REPO_ROOT, APPS_ROOT])) {
    const stale = staleBuild(root);
    if (stale !== undefined) throw new Error(stale);
  }
  await dropLeftOverTestDatabases();
}
