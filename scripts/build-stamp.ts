/**
 * The build's last step: stamps dist/ with a hash of the sources it was built from, which the
 * end-to-end suites check before they start the built apps (test/dist-is-current.ts).
 */
import { REPO_ROOT } from '../libs/testing/src/app-process';
import { writeBuildStamp } from '../libs/testing/src/build-stamp';

writeBuildStamp(REPO_ROOT);
