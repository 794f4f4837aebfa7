#!/usr/bin/env node
/**
 * Runs a named scenario of contract §10 (and the §11 controls) and prints the request, the answer
 * and the events, like `stripe trigger` (README, "Trigger a scenario"):
 *   npm run trigger -- <scenario> [--terminal SERIAL] [--async [--webhook-url URL]] [--sandbox SANDBOX_URL]
 *   npm run trigger -- --list
 * The sandbox and the account are taken as `npm run conformance` takes them; the terminal is the
 * first of the account's fleet unless --terminal names one. Exit code 0 when the scenario behaved
 * as named, 1 when it did not, 2 on bad usage, 3 when the sandbox could not be reached.
 */
import { randomUUID } from 'node:crypto';
import type { operations } from '@tps/client';
import { SandboxClient, sandboxUrl } from './sandbox-client';
import { parseInvocation, USAGE } from './trigger/arguments';
import { acknowledgementOutcome, differences, syncOutcome, type Observation } from './trigger/outcome';
import { chargeBody, scenarioList, type Control, type Scenario } from './trigger/scenarios';

const REQUEST_TIMEOUT_MS = 10_000;
/** Scenario 95 answers after 10 s and 97 waits up to 60 s for a person (§10). */
const CHARGE_TIMEOUT_MS = 90_000;
const FOLLOW_MS = 90_000;
const POLL_MS = 250;
const FINAL = new Set(['APPROVAL', 'DECLINED', 'TERMINAL_REJECTED', 'TERMINAL_CANCELED']);

/** One transaction as transaction search answers it (contract §7). */
type SearchItem =
  operations['SearchController_onlineSearch_cloud']['responses'][200]['content']['application/json']['items'][number];

function print(text: string): void {
  process.stdout.write(`${text}\n`);
}

function json(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

async function bodyOf(response: Response): Promise<unknown> {
  const text = await response.text();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Sends and prints one request and its answer. */
async function exchange(
  sandbox: SandboxClient,
  path: string,
  body: unknown,
  timeoutMs = REQUEST_TIMEOUT_MS,
): Promise<{ status: number; body: unknown }> {
  print(`> POST ${path}\n${json(body)}`);
  const response = await sandbox.call('POST', path, body, 'application/json', timeoutMs);
  const answer = { status: response.status, body: await bodyOf(response) };
  print(`< ${answer.status}\n${json(answer.body)}`);
  return answer;
}

/** The first terminal of the account's fleet (§11). */
async function firstTerminal(sandbox: SandboxClient): Promise<string> {
  const { data, response } = await sandbox.api.GET('/sandbox/terminals');
  if (data === undefined || data.length === 0) {
    throw new Error(`no terminal to use (GET /sandbox/terminals answered ${response.status})`);
  }
  return data[0].serialNumber;
}

async function search(sandbox: SandboxClient, serial: string, id: string): Promise<SearchItem | undefined> {
  const { data, response } = await sandbox.api.POST(
    '/terminal/v1/{terminalSerial}/sync/transaction_search_online',
    { params: { path: { terminalSerial: serial } }, body: { client_transaction_id: id } },
  );
  if (data === undefined) throw new Error(`transaction search answered ${response.status}`);
  return data.items[0];
}

/**
 * Acts as the cardholder once the terminal waits for a card: until then the control answers 409
 * TRX-006, so it asks again until the charge has `settled`.
 */
async function actOnCard(
  sandbox: SandboxClient,
  serial: string,
  body: Extract<Control, { kind: 'card' }>['body'],
  settled: () => boolean,
): Promise<void> {
  const path = `/sandbox/terminals/${serial}/card`;
  const deadline = Date.now() + CHARGE_TIMEOUT_MS;
  while (!settled() && Date.now() < deadline) {
    const response = await sandbox.call('POST', path, body);
    const answer = await bodyOf(response);
    if (response.status !== 409 || (answer as { code?: string }).code !== 'TRX-006') {
      print(`> POST ${path}\n${json(body)}\n< ${response.status}\n${json(answer)}`);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

function observe(item: SearchItem | undefined, base: Observation): Observation {
  if (item === undefined) return base;
  return {
    ...base,
    ...(item.card?.reading_type == null ? {} : { readingType: item.card.reading_type }),
    ...(item.card?.card_type === undefined ? {} : { cardType: item.card.card_type }),
    cardPresentations: item.events.filter((e) => e.status === 'CARD_PRESENTED').length,
  };
}

function printEvents(events: SearchItem['events'], shown: Set<string>): void {
  for (const event of events) {
    if (shown.has(event.event_id)) continue;
    shown.add(event.event_id);
    print(`  ${event.occurred_at}  ${event.status}`);
  }
}

async function charge(
  sandbox: SandboxClient,
  scenario: Scenario,
  serial: string,
  async: boolean,
  webhookUrl: string | undefined,
): Promise<Observation> {
  const id = randomUUID();
  const path = `/terminal/v1/${serial}/${async ? 'async' : 'sync'}/charge`;
  const control = scenario.control?.kind === 'card' ? scenario.control.body : undefined;
  let settled = false;
  const answering = exchange(sandbox, path, chargeBody(scenario, id, webhookUrl), CHARGE_TIMEOUT_MS).finally(
    () => {
      settled = true;
    },
  );
  // A sync charge answers only once the card control has acted, so the control runs beside it.
  const acting =
    control !== undefined && !async ? actOnCard(sandbox, serial, control, () => settled) : undefined;
  const answer = await answering;
  await acting;

  const outcome = async
    ? acknowledgementOutcome(answer.status, answer.body)
    : syncOutcome(answer.status, answer.body);
  if (outcome !== null && !FINAL.has(outcome.status)) {
    // Only the service's 503 means "not taken"; any other answer leaves the outcome to search (§19).
    print(
      outcome.status === 'NOT_TAKEN'
        ? 'events: none, the charge was not taken'
        : `events: not followed after this answer (${outcome.status})`,
    );
    return outcome;
  }
  print('events (transaction search):');
  const shown = new Set<string>();
  if (!async) {
    const item = await search(sandbox, serial, id);
    printEvents(item?.events ?? [], shown);
    return observe(item, outcome ?? { status: 'UNKNOWN' });
  }
  if (control !== undefined) await actOnCard(sandbox, serial, control, () => false);
  const deadline = Date.now() + FOLLOW_MS;
  for (;;) {
    const item = await search(sandbox, serial, id);
    printEvents(item?.events ?? [], shown);
    if (item !== undefined && item.status !== null && FINAL.has(item.status)) {
      return observe(item, { status: item.status });
    }
    if (Date.now() > deadline) return observe(item, { status: `not final after ${FOLLOW_MS / 1000} s` });
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** Runs the scenario, with the terminal offline around the charge when it asks for it. */
async function run(
  sandbox: SandboxClient,
  scenario: Scenario,
  serial: string,
  async: boolean,
  webhookUrl: string | undefined,
): Promise<Observation> {
  if (scenario.control?.kind !== 'offline') return charge(sandbox, scenario, serial, async, webhookUrl);
  const offline = await exchange(sandbox, `/sandbox/terminals/${serial}/offline`, {});
  if (offline.status !== 200) throw new Error(`could not put ${serial} offline`);
  try {
    return await charge(sandbox, scenario, serial, async, webhookUrl);
  } finally {
    await exchange(sandbox, `/sandbox/terminals/${serial}/online`, {});
  }
}

async function main(): Promise<void> {
  const invocation = parseInvocation(process.argv.slice(2));
  if (invocation.kind === 'usage') {
    process.stderr.write(`${invocation.problem}\n${USAGE}`);
    process.exit(2);
  }
  if (invocation.kind === 'list') {
    process.stdout.write(scenarioList());
    return;
  }
  const { scenario } = invocation;
  const sandbox = new SandboxClient(sandboxUrl(invocation.sandbox), REQUEST_TIMEOUT_MS);
  const serial = invocation.terminal ?? (await firstTerminal(sandbox));
  print(`scenario ${scenario.name} on ${serial}${invocation.async ? ' (async)' : ''}: ${scenario.summary}`);
  const observed = await run(sandbox, scenario, serial, invocation.async, invocation.webhookUrl);
  const problems = differences(scenario.expected, observed);
  if (problems.length === 0) {
    print(
      `PASS  ${scenario.name}: ${observed.status}${observed.code === undefined ? '' : ` ${observed.code}`}`,
    );
    return;
  }
  print(`FAIL  ${scenario.name}\n${problems.map((problem) => `      ${problem}`).join('\n')}`);
  process.exit(1);
}

main().catch((error: unknown) => {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  process.stderr.write(`${cause instanceof Error ? cause.message : String(cause)}\n`);
  process.exit(3);
});
