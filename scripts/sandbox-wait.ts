#!/usr/bin/env node
/**
 * Waits until the sandbox can serve requests (`GET /ready` answers 200), for CI scripts:
 *   npm run sandbox:wait -- [--url http://127.0.0.1:3000] [--timeout 60] [--pid PID]
 * The URL comes from --url, else SANDBOX_URL, else http://127.0.0.1:$API_PORT (or $PORT, or 3000).
 * Exit code 0 once ready; 1 when the timeout (seconds) passes first, printing what was missing,
 * or at once when the process --pid names (the launcher started in the background) is gone: a
 * start that failed fails the wait, instead of leaving it to its timeout or to another sandbox
 * already answering on the port.
 */
import { parseArgs } from 'node:util';

const POLL_MS = 250;
const REQUEST_TIMEOUT_MS = 2000;

function usage(): never {
  process.stderr.write('usage: npm run sandbox:wait -- [--url URL] [--timeout SECONDS] [--pid PID]\n');
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
  let values: { url?: string; timeout?: string; pid?: string };
  try {
    values = parseArgs({
      options: { url: { type: 'string' }, timeout: { type: 'string' }, pid: { type: 'string' } },
    }).values;
  } catch {
    usage();
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
