import { DEMO_MERCHANT, OTHER_MERCHANT, findLogLeaks, takeStartedApps, takeUsedSecrets } from '@tps/testing';

/**
 * Every end-to-end file, once its tests are done: the output of every app it started is scanned for
 * what no log line may hold (README, "Logs"): the secrets the file's apps and clients used, and
 * whatever looks like a secret key, a signature or a card number. A regular-expression pass over
 * the text the apps wrote: milliseconds per file.
 */
afterAll(() => {
  const secrets = [DEMO_MERCHANT.secret, OTHER_MERCHANT.secret, ...takeUsedSecrets()];
  const leaks = takeStartedApps().flatMap((app) =>
    findLogLeaks(app.name, app.log, [...secrets, ...app.secrets]),
  );
  if (leaks.length > 0) {
    const listed = leaks.map((leak) => `${leak.app} line ${leak.line}: ${leak.what} (${leak.found})`);
    throw new Error(`log lines hold what no log line may:\n${listed.join('\n')}`);
  }
});
