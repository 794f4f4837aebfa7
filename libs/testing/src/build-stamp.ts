import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/**
 * The end-to-end suites start the built apps, so a build of an older tree would test old code.
 * The build writes a stamp of the sources it was made from; the e2e suites compare it with the
 * tree before they start anything.
 */
export const BUILD_STAMP = 'dist/build-stamp.json';

/** What tsconfig.build.json and the console's vite build compile into dist/. */
const SOURCE_FOLDERS = ['apps', 'libs', 'scripts', 'bench'];
const SOURCE_FILE = /\.(ts|tsx|mts|html|css)$/;
const NOT_BUILT = /\.(spec|e2e-spec)\.tsx?$/;
const CONFIG_FILES = ['tsconfig.json', 'tsconfig.build.json', 'apps/console/tsconfig.json'];
/** Output kept beside the sources, never compiled (a package's own build, libs/client/dist, too). */
const SKIPPED_FOLDERS = new Set(['node_modules', 'results', 'dist']);

function sourceFiles(root: string, folder: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(join(root, folder), { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED_FOLDERS.has(entry.name)) found.push(...sourceFiles(root, path));
    } else if (SOURCE_FILE.test(entry.name) && !NOT_BUILT.test(entry.name)) {
      found.push(path);
    }
  }
  return found;
}

/** A hash of every source file that goes into dist/, by path and content. */
export function sourcesHash(root: string): string {
  const files = [
    ...CONFIG_FILES,
    ...SOURCE_FOLDERS.filter((folder) => existsSync(join(root, folder))).flatMap((folder) =>
      sourceFiles(root, folder),
    ),
  ]
    .filter((file) => existsSync(join(root, file)))
    .map((file) => relative(root, join(root, file)).split(sep).join('/'))
    .sort();
  const hash = createHash('sha256');
  for (const file of files) {
    hash
      .update(file)
      .update('\0')
      .update(readFileSync(join(root, file)))
      .update('\0');
  }
  return hash.digest('hex');
}

/** Written by the build, once dist/ is complete. */
export function writeBuildStamp(root: string): void {
  writeFileSync(join(root, BUILD_STAMP), `${JSON.stringify({ sources: sourcesHash(root) })}\n`);
}

/** Why dist/ of `root` is not a build of its current sources, or undefined when it is. */
export function staleBuild(root: string): string | undefined {
  const stampFile = join(root, BUILD_STAMP);
  const advice = `dist/ is stale: run npm run build (in ${root})`;
  if (!existsSync(stampFile)) return `${advice}; it has no ${BUILD_STAMP}`;
  let stamped: unknown;
  try {
    stamped = (JSON.parse(readFileSync(stampFile, 'utf8')) as { sources?: unknown }).sources;
  } catch {
    return `${advice}; ${BUILD_STAMP} does not parse`;
  }
  return stamped === sourcesHash(root) ? undefined : `${advice}; the sources changed since it was built`;
}
