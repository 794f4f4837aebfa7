import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readFileSync, readSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { secretsOfEnv } from './log-scan';

/** The checkout's root, whether this file runs from source (tests) or from dist/ (benchmarks). */
export const REPO_ROOT = resolve(__dirname, '../../..').replace(/[\\/]dist$/, '');
/**
 * The checkout whose built apps (dist/) are started: this one, or another given by BENCH_APPS_ROOT
 * (e.g. a worktree of an older commit, built there), so a benchmark can time old and new apps
 * with the same benchmark code.
 */
export const APPS_ROOT = resolve(process.env.BENCH_APPS_ROOT || REPO_ROOT);
export const API_ENTRY = join(APPS_ROOT, 'dist/apps/api/src/main.js');
export const SIMULATOR_ENTRY = join(APPS_ROOT, 'dist/apps/terminal-simulator/src/main.js');

const LISTENING = /listening on port (\d+)/;
/** How often a starting app's output is read for the line that says it listens. */
const START_POLL_MS = 20;

/**
 * Where the apps' output goes: a file each, in a folder of this process's, removed when it exits.
 * A file, not a pipe: an app never waits for this process to read what it logs (a pipe that this
 * process, busy sending a benchmark's load, reads late blocks the app's log writes, and so its
 * work).
 */
let logDir: string | undefined;
function logFileOf(name: string): string {
  if (logDir === undefined) {
    const dir = mkdtempSync(join(tmpdir(), 'tps-app-logs-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    logDir = dir;
  }
  return join(logDir, `${name}-${randomUUID()}.log`);
}

/** What was added to a file since `offset` bytes. */
function readFrom(file: string, offset: number): Buffer {
  const fd = openSync(file, 'r');
  try {
    const chunks: Buffer[] = [];
    for (let at = offset; ;) {
      const chunk = Buffer.alloc(64 * 1024);
      const n = readSync(fd, chunk, 0, chunk.length, at);
      if (n === 0) return Buffer.concat(chunks);
      chunks.push(chunk.subarray(0, n));
      at += n;
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * Every app this test file started, for the scan of their logs when it ends (test/log-scan-setup.ts).
 * Kept under Jest only: a benchmark's apps, and their long logs, are let go once stopped.
 */
const started: AppProcess[] = [];
const UNDER_JEST = process.env.JEST_WORKER_ID !== undefined;

/** The apps started since the last call, each once; the list is emptied. */
export function takeStartedApps(): AppProcess[] {
  return started.splice(0);
}

/** The JSON lines of an app's output (pino's), parsed; a line that is not JSON is `{ raw }`. */
export function logRecords(output: string): Record<string, unknown>[] {
  return output
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      try {
        const parsed: unknown = JSON.parse(line);
        return typeof parsed === 'object' && parsed !== null
          ? (parsed as Record<string, unknown>)
          : { raw: line };
      } catch {
        return { raw: line };
      }
    });
}

/** `[context] message` and any stack of each line, with real newlines. */
export function readableLog(output: string): string {
  return logRecords(output)
    .map((record) => {
      if (typeof record.raw === 'string') return record.raw;
      const err = record.err as { stack?: unknown } | undefined;
      const parts = [
        typeof record.context === 'string' ? `[${record.context}]` : '',
        typeof record.msg === 'string' ? record.msg : '',
        typeof record.stack === 'string' ? `\n${record.stack}` : '',
        typeof err?.stack === 'string' ? `\n${err.stack}` : '',
      ];
      return parts.filter((part) => part !== '').join(' ');
    })
    .join('\n');
}

/** One of the built apps, running as its own process, as in the field. */
export class AppProcess {
  private exited: Promise<number | null>;

  private constructor(
    readonly name: string,
    private readonly child: ChildProcess,
    readonly port: number,
    /** The secret values of its environment: none may reach its log. */
    readonly secrets: readonly string[],
    /** Its stdout and stderr, both. */
    private readonly logFile: string,
  ) {
    this.exited = new Promise((done) => {
      if (child.exitCode !== null) done(child.exitCode);
      else child.once('exit', (code) => done(code));
    });
    // A benchmark's long logs go with its apps; a test's stay for the scan of its file's logs.
    if (!UNDER_JEST) void this.exited.then(() => rmSync(logFile, { force: true }));
  }

  static start(
    name: string,
    entry: string,
    env: Record<string, string>,
    {
      // Generous: jest runs several end-to-end files at once (jest.config.js), each starting apps,
      // and on two cores a start waits its turn for the CPU.
      timeoutMs = 45_000,
      nodeArgs: extraNodeArgs = [],
      descriptorLimit,
    }: {
      timeoutMs?: number;
      nodeArgs?: readonly string[];
      /** The app's limit of open file descriptors (`ulimit -n`), set by a shell that then becomes it. */
      descriptorLimit?: number;
    } = {},
  ): Promise<AppProcess> {
    // APP_NODE_ARGS (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`) profiles the apps a benchmark
    // starts: Node refuses --cpu-prof in NODE_OPTIONS.
    const nodeArgs = [
      ...(process.env.APP_NODE_ARGS ?? '').split(' ').filter((arg) => arg !== ''),
      ...extraNodeArgs,
    ];
    const logFile = logFileOf(name);
    const fd = openSync(logFile, 'a');
    let child: ChildProcess;
    try {
      const command = [process.execPath, ...nodeArgs, entry];
      const [file, ...args] =
        descriptorLimit === undefined
          ? command
          : ['bash', '-c', `ulimit -n ${descriptorLimit} && exec "$@"`, 'bash', ...command];
      child = spawn(file, args, {
        env: { ...process.env, NO_COLOR: '1', ...env },
        stdio: ['ignore', fd, fd],
      });
    } finally {
      // The child has its own copy.
      closeSync(fd);
    }
    return new Promise((resolvePort, reject) => {
      let output = '';
      let offset = 0;
      const readMore = (): void => {
        const more = readFrom(logFile, offset);
        offset += more.length;
        output += more.toString('utf8');
      };
      const done = (): void => {
        clearTimeout(timer);
        clearInterval(poll);
        child.off('exit', onExit);
      };
      const timer = setTimeout(() => {
        done();
        child.kill('SIGKILL');
        readMore();
        reject(new Error(`${name} did not start in ${timeoutMs} ms:\n${output}`));
      }, timeoutMs);
      const poll = setInterval(() => {
        readMore();
        const match = LISTENING.exec(output);
        if (!match) return;
        done();
        const app = new AppProcess(name, child, Number(match[1]), secretsOfEnv(env), logFile);
        if (UNDER_JEST) started.push(app);
        resolvePort(app);
      }, START_POLL_MS);
      const onExit = (code: number | null): void => {
        done();
        readMore();
        reject(new Error(`${name} exited with ${code} before listening:\n${output}`));
      };
      child.once('exit', onExit);
    });
  }

  /** Everything the app wrote so far, stdout and stderr (nothing once a benchmark's app ended). */
  private get output(): string {
    try {
      return readFileSync(this.logFile, 'utf8');
    } catch (error) {
      if (UNDER_JEST) throw error;
      return '';
    }
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get log(): string {
    return this.output;
  }

  /** The parsed JSON lines of the output so far; a line that is not JSON is `{ raw }`. */
  get lines(): Record<string, unknown>[] {
    return logRecords(this.output);
  }

  /**
   * The output as a person reads it: each line's `[context] message`, then its stack, with real
   * newlines (a JSON line escapes them), so a check for a stack frame sees one.
   */
  get text(): string {
    return readableLog(this.output);
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** A graceful stop, as an operator's Ctrl-C. */
  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.kill('SIGTERM');
    // Past the drain (about 3 s idle) and the webhook dispatcher's stop grace (2 s), with room.
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 15_000);
    await this.exited;
    clearTimeout(timer);
  }

  /** SIGTERM, then however long the app takes to stop by itself (a drain); answers its exit code. */
  async terminate(): Promise<number | null> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGTERM');
    return this.exited;
  }

  /** A crash: no shutdown hook runs. */
  async kill(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.kill('SIGKILL');
    await this.exited;
  }
}
