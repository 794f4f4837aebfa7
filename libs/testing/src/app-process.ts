import { spawn, type ChildProcess } from 'node:child_process';
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
  private output = '';
  private exited: Promise<number | null>;

  private constructor(
    readonly name: string,
    private readonly child: ChildProcess,
    readonly port: number,
    /** The secret values of its environment: none may reach its log. */
    readonly secrets: readonly string[],
  ) {
    this.exited = new Promise((done) => {
      if (child.exitCode !== null) done(child.exitCode);
      else child.once('exit', (code) => done(code));
    });
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
    }: { timeoutMs?: number; nodeArgs?: readonly string[] } = {},
  ): Promise<AppProcess> {
    // APP_NODE_ARGS (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`) profiles the apps a benchmark
    // starts: Node refuses --cpu-prof in NODE_OPTIONS.
    const nodeArgs = [
      ...(process.env.APP_NODE_ARGS ?? '').split(' ').filter((arg) => arg !== ''),
      ...extraNodeArgs,
    ];
    const child = spawn(process.execPath, [...nodeArgs, entry], {
      env: { ...process.env, NO_COLOR: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    return new Promise((resolvePort, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`${name} did not start in ${timeoutMs} ms:\n${output}`));
      }, timeoutMs);
      const onData = (chunk: Buffer): void => {
        output += chunk.toString('utf8');
        const match = LISTENING.exec(output);
        if (!match) return;
        clearTimeout(timer);
        const app = new AppProcess(name, child, Number(match[1]), secretsOfEnv(env));
        app.output = output;
        if (UNDER_JEST) started.push(app);
        child.stdout?.on('data', (more: Buffer) => (app.output += more.toString('utf8')));
        child.stderr?.on('data', (more: Buffer) => (app.output += more.toString('utf8')));
        child.stdout?.off('data', onData);
        child.stderr?.off('data', onData);
        resolvePort(app);
      };
      child.stdout?.on('data', onData);
      child.stderr?.on('data', onData);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`${name} exited with ${code} before listening:\n${output}`));
      });
    });
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
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 5000);
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
