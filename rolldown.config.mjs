/**
 * Each app's entry point, bundled in place (`dist/apps/<app>/src/main.js`) after `tsc`: one file
 * instead of about 2,000 modules found, read and compiled one by one, which is most of what an
 * app spends starting (README, "Layout").
 *
 * Left out of the bundle, and loaded from node_modules as before:
 * - packages with native code or files of their own read at run time (sqlite3, pino's transports);
 * - packages that a bundled one also loads by name at run time (`createRequire`): a second copy
 *   would keep metadata of its own (entities, validation rules) that the first never sees;
 * - the optional Nest packages this project does not install, loaded only when used.
 * Any other import that cannot be resolved fails the build.
 */
import { builtinModules } from 'node:module';
import { dirname, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RolldownMagicString } from 'rolldown';

const ROOT = dirname(fileURLToPath(import.meta.url));
const APPS = ['api', 'terminal-simulator'];

const LOADED_AT_RUN_TIME = ['sqlite3', 'pino', 'typeorm', 'class-validator', 'class-transformer'];
const OPTIONAL_NOT_INSTALLED = ['@fastify/static', '@nestjs/microservices', '@nestjs/websockets'];

const external = [
  ...builtinModules,
  /^node:/,
  ...[...LOADED_AT_RUN_TIME, ...OPTIONAL_NOT_INSTALLED].map(
    (name) => new RegExp(`^${name.replace(/[/.]/g, '\\$&')}(/|$)`),
  ),
];

/**
 * A module's `__dirname` stays its own directory, not the bundle's: each use becomes the bundle's
 * directory joined with the path from it to the module's. Edited in place with rolldown's
 * MagicString, so the bundle's source map still points at the module's own lines.
 */
export function ownDirname(outputDir) {
  return {
    name: 'own-dirname',
    transform(code, id) {
      if (!/\b__(dirname|filename)\b/.test(code)) return null;
      const fromBundle = JSON.stringify(relative(outputDir, dirname(id)));
      const fileName = JSON.stringify(id.split('/').pop());
      const dir = `require('node:path').join(__dirname, ${fromBundle})`;
      const file = `require('node:path').join(${dir}, ${fileName})`;
      const edited = new RolldownMagicString(code);
      for (const match of code.matchAll(/\b__(dirname|filename)\b/g)) {
        edited.overwrite(match.index, match.index + match[0].length, match[1] === 'dirname' ? dir : file);
      }
      return { code: edited };
    },
  };
}

/** Unresolved imports are failures, except the optional packages named above. */
function onLog(level, log, defaultHandler) {
  if (log.code === 'UNRESOLVED_IMPORT') defaultHandler('error', log);
  else defaultHandler(level, log);
}

export default APPS.map((app) => {
  const outputDir = `${ROOT}/dist/apps/${app}/src`;
  return {
    input: `${outputDir}/main.js`,
    platform: 'node',
    external,
    onLog,
    plugins: [ownDirname(outputDir)],
    output: { file: `${outputDir}/main.js`, format: 'cjs', codeSplitting: false, sourcemap: true },
  };
});
