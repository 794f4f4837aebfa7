#!/usr/bin/env node
/**
 * Waits until the sandbox can serve requests (`GET /ready` answers 200), for CI scripts:
 *   npm run sandbox:wait -- [--url http://127.0.0.1:3000] [--timeout 60]
 * The URL comes from --url, else SANDBOX_URL, else http://127.0.0.1:$API_PORT (or $PORT, or 3000).
 * Exit code 0 once ready; 1 when the timeout (seconds) passes first, printing what was missing.
 */
import { parseArgs } from 'node:util';

const POLL_MS = 250;
const REQUEST_TIMEOUT_MS = 2000;

function usage(): never {
  process.stderr.write('usage: npm run sandbox:wait -- [--url URL] [--timeout SECONDS]\n');
  process.exit(2);
}

async function readiness(url: string): Promise<{ ready: boolean; detail: string }> {
  try {
    const response = await fetch(`${url}/ready`, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
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
  }
}

async function main(): Promise<void> {
  let values: { url?: string; timeout?: string };
  try {
    values = parseArgs({ options: { url: { type: 'string' }, timeout: { type: 'string' } } }).values;
  } catch {
    usage();
  }
  const port = process.env.API_PORT ?? process.env.PORT ?? '3000';
  const url = (values.url ?? process.env.SANDBOX_URL ?? `http://127.0.0.1:${port}`).replace(/\/$/, '');
  const timeoutSeconds = Number(values.timeout ?? '60');
  if (!Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0) usage();
  const deadline = Date.now() + timeoutSeconds * 1000;
  let last = '';
  for (;;) {
    const state = await readiness(url);
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
