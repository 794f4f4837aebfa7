import { APPS_ROOT, REPO_ROOT } from '../libs/testing/src/app-process';
import { staleBuild } from '../libs/testing/src/build-stamp';

/**
 * The e2e project's globalSetup: the suites start the apps built in dist/ (this checkout's, or
 * BENCH_APPS_ROOT's), so they refuse to run against a build older than the sources.
 */
export default function distIsCurrent(): void {
  for (const root of new Set([REPO_ROOT, APPS_ROOT])) {
    const stale = staleBuild(root);
    if (stale !== undefined) throw new Error(stale);
  }
}
