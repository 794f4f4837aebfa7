/**
 * A hash of every file git does not ignore (tracked or not), by path and content: `npm start`
 * rebuilds only when it differs from the one stamped after its last build. Plain JavaScript, as
 * it runs before anything is built.
 */
const { execFileSync } = require('node:child_process');
const { createHash } = require('node:crypto');
const { existsSync, readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const STAMP = 'dist/tree-stamp.json';

/** The hash of `root`'s tree, or undefined when it is not a git checkout (then every start builds). */
function treeHash(root) {
  let listed;
  try {
    listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch {
    return undefined;
  }
  const hash = createHash('sha256');
  for (const file of [...new Set(listed.split('\0').filter((file) => file !== ''))].sort()) {
    // A tracked file deleted from the worktree is still listed: its absence is what counts.
    const path = join(root, file);
    hash.update(file).update('\0');
    if (existsSync(path)) hash.update(readFileSync(path));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** Whether the last build was made from a tree with this hash. */
function isStamped(root, hash) {
  try {
    return JSON.parse(readFileSync(join(root, STAMP), 'utf8')).tree === hash;
  } catch {
    return false;
  }
}

function writeStamp(root, hash) {
  writeFileSync(join(root, STAMP), `${JSON.stringify({ tree: hash })}\n`);
}

module.exports = { STAMP, treeHash, isStamped, writeStamp };
