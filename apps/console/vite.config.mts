import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

/** The console's bundle goes to dist/console, which the API serves at /console (sandbox only). */
export default defineConfig({
  root,
  base: '/console/',
  logLevel: 'warn',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: fileURLToPath(new URL('../../dist/console', import.meta.url)),
    emptyOutDir: true,
    assetsDir: 'assets',
    // The console runs only in the sandbox, on a presenter's recent browser.
    target: 'es2022',
    // The timing report is advice for plugin authors, not for this build's readers.
    rolldownOptions: { checks: { pluginTimings: false } },
  },
});
