import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { staleBuild, writeBuildStamp } from './build-stamp';

describe('the build stamp', () => {
  let root: string;
  const write = (file: string, text: string): void => {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), text);
  };

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'tps-stamp-'));
    write('tsconfig.json', '{}');
    write('apps/api/src/main.ts', 'export const a = 1;');
    write('apps/console/index.html', '<main></main>');
    write('dist/apps/api/src/main.js', '');
  });

  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('calls a dist/ without a stamp stale', () => {
    expect(staleBuild(root)).toMatch(/^dist\/ is stale: run npm run build/);
  });

  it('calls dist/ current right after the build stamped it', () => {
    writeBuildStamp(root);
    expect(staleBuild(root)).toBeUndefined();
  });

  it.each([
    ['a source changed', 'apps/api/src/main.ts', 'export const a = 2;'],
    ['a source added', 'libs/domain/src/new.ts', ''],
    ['a console page changed', 'apps/console/index.html', '<main>new</main>'],
    ['the compiler settings changed', 'tsconfig.json', '{"compilerOptions":{}}'],
  ])('calls dist/ stale once %s', (_what, file, text) => {
    writeBuildStamp(root);
    write(file, text);
    expect(staleBuild(root)).toMatch(/^dist\/ is stale: run npm run build.*sources changed/);
  });

  it.each([
    ['a unit test', 'apps/api/src/main.spec.ts'],
    ['an end-to-end suite', 'test/any.e2e-spec.ts'],
    ['a benchmark result', 'bench/results/run.json'],
    ['a document', 'apps/api/README.md'],
    ["a package's own build", 'libs/client/dist/index.d.ts'],
  ])('ignores %s, which is not built', (_what, file) => {
    writeBuildStamp(root);
    write(file, 'anything');
    expect(staleBuild(root)).toBeUndefined();
  });
});
