/**
 * Preloaded into an app by bench/charge-files.ts (`NODE_OPTIONS=--require`): V8's precise
 * coverage of the process, taken each time a new name is written into the file
 * CHARGE_FILES_TRIGGER names, and saved beside it as `<name>.<CHARGE_FILES_APP>.json` (the
 * bundle's scripts only; none when nothing of it ran). Each take resets the counts: a take holds what ran since the one before.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { dirname, join } from 'node:path';

const trigger = process.env.CHARGE_FILES_TRIGGER;

if (trigger !== undefined && trigger !== '') {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
  let last = '';
  const look = (): void => {
    let name = '';
    try {
      name = readFileSync(trigger, 'utf8').trim();
    } catch {
      return;
    }
    if (name === '' || name === last) return;
    last = name;
    session.post('Profiler.takePreciseCoverage', (error, taken) => {
      if (error !== null) return;
      const bundles = taken.result.filter((script) => script.url.endsWith('/main.js'));
      writeFileSync(
        join(dirname(trigger), `${name}.${process.env.CHARGE_FILES_APP ?? process.pid}.json`),
        JSON.stringify(bundles),
      );
    });
  };
  setInterval(look, 20).unref();
}
