/**
 * `npm run build` writes over dist/ instead of deleting it first, so that a sandbox of this
 * checkout still running meanwhile keeps serving its console and its docs from it. `begin` notes
 * when the build starts; `end`, once every step has written its files, deletes those it did not
 * write again (the output of sources since removed or renamed, a console bundle's old hashes).
 * Plain JavaScript: it runs before anything is built.
 */
const { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

/** dist/, or the directory named after the step (the spec's). */
const DIST = process.argv[3] ?? join(__dirname, '..', 'dist');
const STARTED = join(DIST, '.build-started');

/** Deletes the files under `dir` last written before `since` (ms), and the directories left empty. */
function prune(dir, since) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      prune(path, since);
      if (readdirSync(path).length === 0) rmSync(path, { recursive: true });
    } else if (statSync(path).mtimeMs < since) {
      rmSync(path);
    }
  }
}

const step = process.argv[2];
if (step === 'begin') {
  mkdirSync(DIST, { recursive: true });
  writeFileSync(STARTED, '');
} else if (step === 'end') {
  // The marker's own time, from the file system's clock, which stamps what the build writes: the
  // process's clock may run ahead of it by a tick, and a file written at once would seem older.
  const since = statSync(STARTED).mtimeMs;
  rmSync(STARTED);
  prune(DIST, since);
} else {
  process.stderr.write('usage: node scripts/build-in-place.js begin|end [dir]\n');
  process.exit(2);
}
