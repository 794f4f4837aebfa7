#!/usr/bin/env node
/**
 * Runs the webhook-consumer conformance run (contract §17) against a receiver and prints its
 * report card:
 *   npm run conformance -- --url RECEIVER_URL [--report-url REPORT_URL] [--junit FILE]
 *     [--sandbox SANDBOX_URL] [--cases a,b]
 * Without --report-url, duplicate-event and print-duplicate are skipped (never passed).
 * The sandbox URL comes from --sandbox, else SANDBOX_URL, else http://127.0.0.1:$API_PORT (or
 * $PORT, or 3000); the account from MERCHANT_ID and SECRET_KEY (the demo merchant by default), as
 * `npm run sign` takes them. Exit code 0 when every case run passed, 1 when one failed, 2 on bad usage,
 * 3 when the run could not be started or followed.
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { components } from '@tps/client';
import { SandboxClient, sandboxUrl } from './sandbox-client';

type CaseName = NonNullable<components['schemas']['StartConformanceRunDto']['cases']>[number];

const POLL_MS = 500;
/** A run lasts at most 60 s; the wait allows for the requests around it. */
const FOLLOW_MS = 90_000;
const REQUEST_TIMEOUT_MS = 10_000;

interface CaseReport {
  name: string;
  passed: boolean;
  skipped?: boolean;
  expected: string;
  observed: string;
  hint: string;
}

interface RunReport {
  id: string;
  state: string;
  score: { passed: number; failed: number; skipped: number; total: number };
  cases: CaseReport[];
}

function usage(): never {
  process.stderr.write(
    'usage: npm run conformance -- --url RECEIVER_URL [--report-url REPORT_URL] [--junit FILE] [--sandbox SANDBOX_URL] [--cases a,b]\n',
  );
  process.exit(2);
}

async function failWith(response: Response): Promise<never> {
  process.stderr.write(`the sandbox answered ${response.status}: ${await response.text()}\n`);
  process.exit(3);
}

function card(run: RunReport): string {
  const skipped = run.score.skipped > 0 ? `, ${run.score.skipped} skipped` : '';
  const lines = [`conformance run ${run.id}: ${run.score.passed}/${run.score.total} passed${skipped}`, ''];
  for (const c of run.cases) {
    if (c.skipped === true) {
      lines.push(`SKIP  ${c.name}`, `      ${c.observed}`);
      continue;
    }
    lines.push(`${c.passed ? 'PASS' : 'FAIL'}  ${c.name}`);
    if (!c.passed) {
      lines.push(
        `      expected: ${c.expected}`,
        `      observed: ${c.observed}`,
        `      hint:     ${c.hint}`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

async function main(): Promise<void> {
  let values: { url?: string; 'report-url'?: string; junit?: string; sandbox?: string; cases?: string };
  try {
    values = parseArgs({
      options: {
        url: { type: 'string' },
        'report-url': { type: 'string' },
        junit: { type: 'string' },
        sandbox: { type: 'string' },
        cases: { type: 'string' },
      },
    }).values;
  } catch {
    usage();
  }
  if (values.url === undefined) usage();
  const sandbox = new SandboxClient(sandboxUrl(values.sandbox), REQUEST_TIMEOUT_MS);
  // The sandbox names an unknown case in its 400 answer, so the names go as given.
  const cases = values.cases?.split(',').map((name) => name.trim()) as CaseName[] | undefined;
  const started = await sandbox.api.POST('/sandbox/conformance-runs', {
    body: {
      url: values.url,
      ...(values['report-url'] === undefined ? {} : { report_url: values['report-url'] }),
      ...(cases === undefined ? {} : { cases }),
    },
  });
  if (started.data === undefined) return failWith(started.response);
  const { id } = started.data;
  process.stderr.write(`conformance run ${id} started against ${values.url}\n`);

  const deadline = Date.now() + FOLLOW_MS;
  let run: RunReport;
  for (;;) {
    const answer = await sandbox.api.GET('/sandbox/conformance-runs/{id}', { params: { path: { id } } });
    // The run answers JSON or, asked for it, JUnit XML: the JSON is asked for here.
    if (answer.data === undefined || typeof answer.data === 'string') return failWith(answer.response);
    run = answer.data;
    if (run.state === 'finished') break;
    if (Date.now() > deadline) {
      process.stderr.write(`the run did not finish within ${FOLLOW_MS / 1000} s\n`);
      process.exit(3);
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  process.stdout.write(card(run));
  if (values.junit !== undefined) {
    const xml = await sandbox.call('GET', `/sandbox/conformance-runs/${id}`, undefined, 'application/xml');
    if (xml.status !== 200) await failWith(xml);
    writeFileSync(values.junit, await xml.text());
  }
  process.exit(run.score.failed === 0 && run.score.passed === run.score.total ? 0 : 1);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(3);
});
