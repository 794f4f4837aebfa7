import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SCRIPT = join(__dirname, 'build-in-place.js');
const step = (name: string, dir: string): void => {
  execFileSync(process.execPath, [SCRIPT, name, dir]);
};

describe('npm run build, written over dist/ in place', () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tps-build-in-place-'));
  });

  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps every file while it builds, then deletes only those it did not write again', () => {
    const old = new Date(Date.now() - 60_000);
    mkdirSync(join(dir, 'console/assets'), { recursive: true });
    mkdirSync(join(dir, 'removed-app'), { recursive: true });
    for (const file of ['console/index.html', 'console/assets/index-old.js', 'removed-app/main.js']) {
      writeFileSync(join(dir, file), 'before');
      utimesSync(join(dir, file), old, old);
    }

    step('begin', dir);
    // What the build writes again (the page) or anew (the bundle's new hash).
    writeFileSync(join(dir, 'console/index.html'), 'after');
    writeFileSync(join(dir, 'console/assets/index-new.js'), 'after');
    expect(existsSync(join(dir, 'console/assets/index-old.js'))).toBe(true);
    step('end', dir);

    expect(existsSync(join(dir, 'console/index.html'))).toBe(true);
    expect(existsSync(join(dir, 'console/assets/index-new.js'))).toBe(true);
    expect(existsSync(join(dir, 'console/assets/index-old.js'))).toBe(false);
    expect(existsSync(join(dir, 'removed-app'))).toBe(false);
    expect(existsSync(join(dir, '.build-started'))).toBe(false);
  });

  it('makes dist/ when there is none yet', () => {
    const fresh = join(dir, 'dist');
    step('begin', fresh);
    writeFileSync(join(fresh, 'main.js'), 'built');
    step('end', fresh);
    expect(existsSync(join(fresh, 'main.js'))).toBe(true);
  });
});
