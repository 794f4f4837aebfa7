import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { precompress } from './precompress.mts';

const root = fileURLToPath(new URL('.', import.meta.url));
const outDir = fileURLToPath(new URL('../../dist/console', import.meta.url));

/** The console's bundle goes to dist/console, which the API serves at /console (sandbox only). */
export default defineConfig({
  root,
  base: '/console/',
  logLevel: 'warn',
  plugins: [precompress(`${outDir}/assets`)],
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir,
    // Written over, not emptied: a running sandbox keeps serving the console; `npm run build`
    // deletes the old bundle's files at its end (scripts/build-in-place.js).
    emptyOutDir: false,
    assetsDir: 'assets',
    // The console runs only in the sandbox, on a presenter's recent browser.
    target: 'es2022',
    // The timing report is advice for plugin authors, not for this build's readers.
    rolldownOptions: { checks: { pluginTimings: false } },
  },
});
