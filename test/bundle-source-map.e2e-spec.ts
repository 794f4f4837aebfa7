import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { REPO_ROOT } from '@tps/testing';

const run = promisify(execFile);

/**
 * Bundles a module that reads `__dirname` with the build's own plugin (rolldown.config.mjs), as
 * `npm run build` does, and reports what rolldown logged and where the source map points.
 */
const BUNDLE = `
// From this checkout, though the file runs from a folder of its own.
import { rolldown } from ${JSON.stringify(pathToFileURL(join(REPO_ROOT, 'node_modules/rolldown/dist/index.mjs')).href)};
import { ownDirname } from ${JSON.stringify(pathToFileURL(join(REPO_ROOT, 'rolldown.config.mjs')).href)};
const [dir] = process.argv.slice(-1);
const logs = [];
const bundle = await rolldown({
  input: dir + '/lib/module.js',
  platform: 'node',
  plugins: [ownDirname(dir + '/out')],
  onLog: (level, log) => logs.push(log.code ?? level),
});
const { output } = await bundle.generate({ format: 'cjs', sourcemap: true });
console.log(JSON.stringify({ logs, code: output[0].code, map: output[0].map }));
`;

describe('the build bundle', () => {
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'tps-bundle-'));
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("keeps each module's __dirname its own, with a source map rolldown calls sound (no SOURCEMAP_BROKEN)", async () => {
    mkdirSync(join(dir, 'lib'));
    writeFileSync(
      join(dir, 'lib', 'module.js'),
      "const here = __dirname;\nconsole.log('at', here, __filename);\n",
    );
    writeFileSync(join(dir, 'bundle.mjs'), BUNDLE);
    const { stdout } = await run(process.execPath, [join(dir, 'bundle.mjs'), dir], { cwd: REPO_ROOT });
    const { logs, code, map } = JSON.parse(stdout) as {
      logs: string[];
      code: string;
      map: { sources: string[]; mappings: string };
    };
    expect(logs).not.toContain('SOURCEMAP_BROKEN');
    expect(code).toMatch(/const here = require\("node:path"\)\.join\(__dirname, "\.\.\/lib"\);/);
    expect(map.sources.some((source) => source.endsWith('lib/module.js'))).toBe(true);
    expect(map.mappings).not.toBe('');
  });
});
