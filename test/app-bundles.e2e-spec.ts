import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '@tps/testing';

/**
 * Each app's entry point is one bundle (rolldown.config.mjs), and the packages that a bundled one
 * loads again by name at run time are not in it: a copy inside beside the one in node_modules
 * would keep entities and validation rules of its own, which the other never sees.
 */
const LOADED_FROM_NODE_MODULES = ['typeorm', 'class-validator', 'class-transformer', 'sqlite3', 'pino'];

describe.each(['api', 'terminal-simulator'])('the %s bundle', (app) => {
  const entry = join(REPO_ROOT, 'dist/apps', app, 'src/main.js');
  const sources = (JSON.parse(readFileSync(`${entry}.map`, 'utf8')) as { sources: string[] }).sources;
  const packageOf = (source: string): string | undefined =>
    /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(source)?.[1];

  it('holds the app, its libs and the framework in one file', () => {
    // The app's own modules sit beside the bundle, so their paths in its source map are bare.
    expect(sources).toContain('main.js');
    expect(sources.some((source) => source.includes('libs/domain/src/'))).toBe(true);
    expect(sources.some((source) => packageOf(source) === '@nestjs/core')).toBe(true);
  });

  it('loads the packages shared with run-time loaders from node_modules, not from a copy inside', () => {
    const bundled = new Set(sources.map(packageOf));
    expect(LOADED_FROM_NODE_MODULES.filter((name) => bundled.has(name))).toEqual([]);
    const text = readFileSync(entry, 'utf8');
    for (const name of ['typeorm', 'class-validator']) expect(text).toContain(`require("${name}")`);
  });
});
