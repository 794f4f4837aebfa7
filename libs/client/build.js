/**
 * Builds the package into dist/: tsc's JavaScript and declarations, and the types generated from
 * the OpenAPI document (a .d.ts, which tsc does not copy). `npm pack` runs it (prepack); it needs
 * the checkout's own install (TypeScript).
 */
const { execFileSync } = require('node:child_process');
const { cpSync, rmSync } = require('node:fs');
const { join } = require('node:path');

const here = __dirname;
rmSync(join(here, 'dist'), { recursive: true, force: true });
execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', join(here, 'tsconfig.json')], {
  stdio: 'inherit',
});
cpSync(join(here, 'src/generated/openapi.d.ts'), join(here, 'dist/generated/openapi.d.ts'));
