#!/usr/bin/env node
/**
 * Waits until the sandbox can serve requests (`GET /ready` answers 200), for CI scripts:
 *   npm run sandbox:wait -- [--url http://127.0.0.1:3000] [--timeout 60] [--pid PID]
 * The URL comes from --url, else SANDBOX_URL, else http://127.0.0.1:$API_PORT (or $PORT, or 3000).
 * Exit code 0 once ready; 1 when the timeout (seconds) passes first, printing what was missing,
 * or at once when the process --pid names (the launcher started in the background) is gone: a
 * start that failed fails the wait, instead of leaving it to its timeout. With --pid, ready also
 * means that the process answering (the pid `GET /health` names) is that one or one it started:
 * another sandbox already on the port (an older build) is never taken for it.
 */
import { parseArgs } from 'node:util';
import { isSameOrDescendant } from './process-ancestry';

const POLL_MS = 250;
const REQUEST_TIMEOUT_MS = 2000;

const USAGE = 'usage: npm run sandbox:wait -- [--url URL] [--timeout SECONDS] [--pid PID]\n';

function usage(): never {
  process.stderr.write(USAGE);
  process.exit(2);
}

/**
 * Settles after `ms` on a timer that keeps the process alive. AbortSignal.timeout's timer does
 * not, and a fetch whose connection is reset at once can stay pending with nothing else alive:
 * Node then exits with code 0, "ready", having printed nothing.
 */
function deadlineOf(ms: number): { signal: AbortSignal; clear: () => void } {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error(`no answer in ${ms} ms`)), ms);
  return { signal: controller.signal, clear: () => clearTimeout(timer) };
}

async function readiness(url: string): Promise<{ ready: boolean; detail: string }> {
  const deadline = deadlineOf(REQUEST_TIMEOUT_MS);
  try {
    const response = await fetch(`${url}/ready`, { signal: deadline.signal });
    const body = (await response.json()) as { waiting_for?: string[] };
    return {
      ready: response.status === 200,
      detail: `${response.status}: waiting for ${(body.waiting_for ?? []).join(', ') || 'nothing'}`,
    };
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
    return {
      ready: false,
      detail: `not answering (${cause instanceof Error ? cause.message : String(cause)})`,
    };
  } finally {
    deadline.clear();
  }
}

/** The id of the process answering at `url` (`GET /health`'s `pid`), if it says. */
async function answeringPid(url: string): Promise<number | undefined> {
  const deadline = deadlineOf(REQUEST_TIMEOUT_MS);
  try {
    const response = await fetch(`${url}/health`, { signal: deadline.signal });
    const body = (await response.json()) as { pid?: unknown };
    return typeof body.pid === 'number' ? body.pid : undefined;
  } catch {
    return undefined;
  } finally {
    deadline.clear();
  }
}

/** Whether the process still runs (signal 0 only asks; EPERM means it runs as someone else). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function main(): Promise<void> {
  let values: { url?: string; timeout?: string; pid?: string; help?: boolean };
  try {
    values = parseArgs({
      options: {
        url: { type: 'string' },
        timeout: { type: 'string' },
        pid: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }).values;
  } catch {
    usage();
  }
  if (values.help === true) {
    process.stdout.write(USAGE);
    return;
  }
  const pid = values.pid === undefined ? undefined : Number(values.pid);
  if (pid !== undefined && !(Number.isInteger(pid) && pid > 0)) usage();
  const port = process.env.API_PORT ?? process.env.PORT ?? '3000';
  const url = (values.url ?? process.env.SANDBOX_URL ?? `http://127.0.0.1:${port}`).replace(/\/$/, '');
  const timeoutSeconds = Number(values.timeout ?? '60');
  if (!Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0) usage();
  const deadline = Date.now() + timeoutSeconds * 1000;
  let last = '';
  for (;;) {
    const state = await readiness(url);
    if (state.ready && pid !== undefined) {
      const answering = await answeringPid(url);
      if (answering === undefined || !isSameOrDescendant(answering, pid)) {
        state.ready = false;
        state.detail = `answered by another process (${answering ?? 'no pid'}), not ${pid} or one it started`;
      }
    }
    if (pid !== undefined && !isRunning(pid)) {
      process.stderr.write(`the sandbox process ${pid} is gone: its start failed (see its log)\n`);
      process.exit(1);
    }
    if (state.ready) {
      process.stdout.write(`sandbox ready at ${url}\n`);
      return;
    }
    if (state.detail !== last) process.stderr.write(`${url}/ready ${state.detail}\n`);
    last = state.detail;
    if (Date.now() >= deadline) {
      process.stderr.write(`sandbox not ready after ${timeoutSeconds} s\n`);
      process.exit(1);
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

void main();
