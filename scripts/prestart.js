/**
 * What `npm start` does before it starts the sandbox, in plain JavaScript as nothing may be built
 * yet:
 * 1. checks that the API and simulator ports are free, and says who holds one that is not
 *    (a sandbox of this checkout, or another program), in about a second;
 * 2. builds only when a file git does not ignore changed since the last build it made
 *    (scripts/tree-stamp.js), and never while a sandbox of this checkout runs: that one would
 *    go on running the code it loaded while dist/ held another (its console, its docs).
 */
const { execFileSync, spawnSync } = require('node:child_process');
const { readFileSync } = require('node:fs');
const { createServer } = require('node:net');
const { join } = require('node:path');
const { isStamped, treeHash, writeStamp } = require('./tree-stamp');

const ROOT = join(__dirname, '..');
const BUILD = join(ROOT, 'dist') + '/';
const ports = [
  ['API_PORT', process.env.API_PORT ?? process.env.PORT ?? '3000'],
  ['SIMULATOR_PORT', process.env.SIMULATOR_PORT ?? '3100'],
];

function fail(message) {
  process.stderr.write(`npm start: ${message}\n`);
  process.exit(1);
}

/** Whether a port can be listened on, as the apps listen (every address). */
function isFree(port) {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(Number(port), () => server.close(() => resolve(true)));
  });
}

/** The command line of a process of this machine, or '' once it is gone. */
function commandLine(pid) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    try {
      return execFileSync('ps', ['-o', 'args=', '-p', String(pid)], { encoding: 'utf8' });
    } catch {
      return '';
    }
  }
}

/** Every process running an app of this checkout's build: `pid args` lines. */
function sandboxesOfThisCheckout() {
  let listed;
  try {
    listed = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' });
  } catch {
    return [];
  }
  return listed
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.includes(`${BUILD}apps/`) && Number(line.split(' ')[0]) !== process.pid);
}

/**
 * The pid the service on `port` names in `GET /health`, if it is one of ours and answers. Its
 * deadline is a timer that keeps the process alive: a fetch whose connection is reset at once can
 * stay pending with nothing else alive, and Node would then exit 0 in silence.
 */
async function healthPid(port) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 800);
  try {
    const response = await fetch(`http://127.0.0.1:${port}/health`, { signal: controller.signal });
    const { pid } = await response.json();
    return typeof pid === 'number' ? pid : undefined;
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}

async function main() {
  // Until it has decided, an exit for any other reason is a failure.
  process.exitCode = 1;
  for (const [name, port] of ports) {
    if (await isFree(port)) continue;
    const pid = await healthPid(port);
    if (pid !== undefined && commandLine(pid).includes(BUILD)) {
      fail(
        `a sandbox from this checkout already runs on port ${port} (${name}; pid ${pid}): stop it first (Ctrl-C where it runs, or kill ${pid}), or start this one on other ports (API_PORT, SIMULATOR_PORT)`,
      );
    }
    const running = sandboxesOfThisCheckout();
    if (running.length > 0) {
      fail(
        `port ${port} (${name}) is in use, and a sandbox from this checkout is running: stop it first, or choose other ports (API_PORT, SIMULATOR_PORT):\n  ${running.join('\n  ')}`,
      );
    }
    fail(`port ${port} (${name}) is in use by another program: free it, or choose another with ${name}=…`);
  }
  const hash = treeHash(ROOT);
  if (hash !== undefined && isStamped(ROOT, hash)) {
    process.stdout.write('npm start: the build is current, nothing changed since it was made\n');
    process.exitCode = 0;
    return;
  }
  const running = sandboxesOfThisCheckout();
  if (running.length > 0) {
    fail(
      `a sandbox from this checkout is running and the sources changed: building now would replace the dist/ it reads. Stop it first:\n  ${running.join('\n  ')}`,
    );
  }
  const build = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
  if (hash !== undefined) writeStamp(ROOT, hash);
  process.exitCode = 0;
}

void main();
