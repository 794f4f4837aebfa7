import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { signRequest } from '@tps/contracts';
import { poll, SignedClient, Stack } from '@tps/testing';
import { CASE_NAMES } from '../apps/api/src/conformance/conformance-cases';
import { createReceiver, type ReceiverConfig } from '../examples/webhook-receiver/receiver';
import { brokenReceiver, BROKEN_RULES, noDedupReceiver } from './conformance-receivers';

const run = promisify(execFile);
/** Long enough for a receiver that takes 2.5 s to answer to search after it; 30 s in the contract. */
const SEARCH_WINDOW_MS = 5000;

interface Account {
  merchantId: string;
  secret: string;
  webhookSecret: string;
  client: SignedClient;
}

interface RunReport {
  id: string;
  state: string;
  score: { passed: number; failed: number; skipped: number; total: number };
  cases: Array<{
    name: string;
    rule: string;
    expected: string;
    observed: string;
    passed: boolean;
    skipped?: boolean;
    hint: string;
  }>;
}

describe('webhook-consumer conformance run (contract §17)', () => {
  let stack: Stack;
  const servers: Server[] = [];

  beforeAll(async () => {
    stack = await Stack.start({ apiEnv: { CONFORMANCE_SEARCH_WINDOW_MS: String(SEARCH_WINDOW_MS) } });
  });

  afterAll(async () => {
    for (const server of servers) server.close();
    await stack?.stop();
  });

  async function newAccount(): Promise<Account> {
    const response = await fetch(`${stack.apiUrl}/sandbox/accounts`, { method: 'POST' });
    expect(response.status).toBe(201);
    const body = (await response.json()) as { merchant_id: string; secret_key: string };
    const client = stack.client().as({ merchantId: body.merchant_id, secret: body.secret_key });
    const secret = await client.post('/sandbox/webhook-secret');
    expect(secret.status).toBe(200);
    return {
      merchantId: body.merchant_id,
      secret: body.secret_key,
      webhookSecret: secret.body.secret as string,
      client,
    };
  }

  function configOf(account: Account): ReceiverConfig {
    return {
      webhookSecret: account.webhookSecret,
      baseUrl: stack.apiUrl,
      merchantId: account.merchantId,
      secretKey: account.secret,
    };
  }

  async function listen(server: Server): Promise<string> {
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
  }

  async function finished(account: Account, id: string): Promise<RunReport> {
    return poll(
      'the run to finish',
      async () => {
        const answer = await account.client.get(`/sandbox/conformance-runs/${id}`);
        return answer.body.state === 'finished' ? (answer.body as unknown as RunReport) : undefined;
      },
      60_000,
    );
  }

  /** The receiver's report of what it processed: the same server, GET /processed. */
  const reportUrlOf = (url: string): string => new URL('/processed', url).toString();

  async function runAgainst(
    account: Account,
    url: string,
    options: { report?: boolean; cases?: string[] } = {},
  ): Promise<RunReport> {
    const body = {
      url,
      ...(options.report === false ? {} : { report_url: reportUrlOf(url) }),
      ...(options.cases === undefined ? {} : { cases: options.cases }),
    };
    const started = await account.client.post('/sandbox/conformance-runs', body);
    expect(started.status).toBe(201);
    expect(started.body).toMatchObject({ url, state: 'running', cases: options.cases ?? [...CASE_NAMES] });
    return finished(account, started.body.id as string);
  }

  /** Raw, since the test client reads only JSON answers against the document. */
  function readXml(account: Account, path: string): Promise<Response> {
    const signed = signRequest({
      merchantId: account.merchantId,
      secret: account.secret,
      method: 'GET',
      path,
    });
    return fetch(`${stack.apiUrl}${path}`, {
      headers: {
        authorization: signed.authorization,
        timestamp: signed.timestamp,
        accept: 'application/xml',
      },
    });
  }

  const failedCases = (report: RunReport): string[] =>
    report.cases.filter((c) => !c.passed).map((c) => c.name);

  it('scores the reference receiver 10/10, each case with its rule, expectation, observation and hint', async () => {
    const account = await newAccount();
    const url = await listen(createReceiver(configOf(account)).server);
    const report = await runAgainst(account, url);

    expect(failedCases(report)).toEqual([]);
    expect(report.score).toEqual({ passed: 10, failed: 0, skipped: 0, total: 10 });
    expect(report.cases.map((c) => c.name)).toEqual([...CASE_NAMES]);
    expect(report.cases.find((c) => c.name === 'duplicate-event')?.observed).toMatch(/processed 1 time/);
    for (const c of report.cases) {
      expect(c.rule.length).toBeGreaterThan(0);
      expect(c.expected.length).toBeGreaterThan(0);
      expect(c.observed.length).toBeGreaterThan(0);
      expect(c.hint.length).toBeGreaterThan(0);
    }
    expect(report.cases.find((c) => c.name === 'gap-reconcile')?.observed).toMatch(/searched for /);

    // Real transactions of the account, on a terminal of its own: a search finds them.
    const search = await account.client.post('/terminal/v1/sync/transaction_search_online', { limit: 100 });
    expect(search.status).toBe(200);
    expect((search.body.items as unknown[]).length).toBe(28);
    const fleet = await account.client.get('/sandbox/terminals');
    expect(
      (fleet.body as unknown as Array<{ room: string }>).filter((t) => t.room === 'conformance-run'),
    ).toHaveLength(1);
  });

  it.each(BROKEN_RULES)('a receiver that breaks %s fails that case and no other', async (rule) => {
    const account = await newAccount();
    const url = await listen(brokenReceiver(configOf(account), rule));
    const report = await runAgainst(account, url);

    expect(failedCases(report)).toEqual([rule]);
    expect(report.score).toEqual({ passed: 9, failed: 1, skipped: 0, total: 10 });
  });

  it('fails duplicate-event and print-duplicate for a receiver that processes repeats, by its report', async () => {
    const account = await newAccount();
    const url = await listen(noDedupReceiver(configOf(account)));
    const report = await runAgainst(account, url, { cases: ['duplicate-event', 'print-duplicate'] });

    expect(failedCases(report)).toEqual(['duplicate-event', 'print-duplicate']);
    expect(report.score).toEqual({ passed: 0, failed: 2, skipped: 0, total: 2 });
    expect(report.cases[0].observed).toMatch(/processed 2 time/);
  });

  it('skips the cases that need a report without report_url: never passed, outside the total, JUnit <skipped>', async () => {
    const account = await newAccount();
    const url = await listen(noDedupReceiver(configOf(account)));
    const report = await runAgainst(account, url, {
      report: false,
      cases: ['duplicate-event', 'unknown-field', 'print-duplicate'],
    });

    expect(report.score).toEqual({ passed: 1, failed: 0, skipped: 2, total: 1 });
    const skipped = report.cases.filter((c) => c.skipped === true);
    expect(skipped.map((c) => [c.name, c.passed])).toEqual([
      ['duplicate-event', false],
      ['print-duplicate', false],
    ]);
    for (const c of skipped) expect(c.observed).toMatch(/no report_url/);

    const xml = await (await readXml(account, `/sandbox/conformance-runs/${report.id}`)).text();
    expect(XMLValidator.validate(xml)).toBe(true);
    const suite = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(xml).testsuites
      .testsuite;
    expect(suite).toMatchObject({ tests: '3', failures: '0', skipped: '2' });
    const skippedCases = suite.testcase.filter((c: { skipped?: unknown }) => c.skipped !== undefined);
    expect(skippedCases.map((c: { name: string }) => c.name)).toEqual(['duplicate-event', 'print-duplicate']);
    expect(skippedCases[0].skipped.message).toMatch(/no report_url/);
  });

  it('refuses a report_url on another host than url (PAR-004)', async () => {
    const account = await newAccount();
    const refused = await account.client.post('/sandbox/conformance-runs', {
      url: 'http://127.0.0.1:9/hook',
      report_url: 'http://localhost:9/processed',
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ type: 'PARAMETER', code: 'PAR-004', param: 'report_url' });
  });

  it('answers JUnit XML that a JUnit reader takes: one test case per case, the failure with its hint', async () => {
    const account = await newAccount();
    const url = await listen(brokenReceiver(configOf(account), 'stale-timestamp'));
    const report = await runAgainst(account, url);

    const answer = await readXml(account, `/sandbox/conformance-runs/${report.id}`);
    const xml = await answer.text();
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/xml/);
    expect(XMLValidator.validate(xml)).toBe(true);
    const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(xml);
    const suite = parsed.testsuites.testsuite;
    expect(suite).toMatchObject({ tests: '10', failures: '1', errors: '0' });
    expect(suite.testcase.map((c: { name: string }) => c.name)).toEqual([...CASE_NAMES]);
    const failing = suite.testcase.filter((c: { failure?: unknown }) => c.failure !== undefined);
    expect(failing).toHaveLength(1);
    expect(failing[0].name).toBe('stale-timestamp');
    expect(failing[0].failure['#text']).toContain('hint: Check webhook-timestamp');

    const junit = await readXml(account, `/sandbox/conformance-runs/${report.id}/junit`);
    expect(await junit.text()).toBe(xml);
  });

  it('runs from the command line: exit 0 and a JUnit file for a conforming receiver, exit 1 otherwise', async () => {
    const account = await newAccount();
    const env = { ...process.env, MERCHANT_ID: account.merchantId, SECRET_KEY: account.secret };
    const script = join(__dirname, '..', 'dist', 'scripts', 'conformance.js');
    const junitFile = join(stack.dir, 'conformance.xml');

    const good = await listen(createReceiver(configOf(account)).server);
    const passed = await run(
      'node',
      [
        script,
        '--url',
        good,
        '--report-url',
        reportUrlOf(good),
        '--junit',
        junitFile,
        '--sandbox',
        stack.apiUrl,
      ],
      { env },
    );
    expect(passed.stdout).toContain('10/10 passed');
    expect(XMLValidator.validate(readFileSync(junitFile, 'utf8'))).toBe(true);

    const bad = await listen(brokenReceiver(configOf(account), 'bad-signature'));
    const failed = await run('node', [script, '--url', bad, '--sandbox', stack.apiUrl], { env }).catch(
      (error: { code: number; stdout: string }) => error,
    );
    expect('code' in failed ? failed.code : 0).toBe(1);
    expect(failed.stdout).toContain('FAIL  bad-signature');
    expect(failed.stdout).toContain('hint:');
  });

  it('refuses in the contract error shape: bad URL, unknown case, a second run at once, another account', async () => {
    const account = await newAccount();
    const other = await newAccount();
    const bad = await account.client.post('/sandbox/conformance-runs', { url: 'ftp://127.0.0.1/hook' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ type: 'PARAMETER', code: 'PAR-004', param: 'url' });
    const unknownCase = await account.client.post('/sandbox/conformance-runs', {
      url: 'http://127.0.0.1:9/hook',
      cases: ['no-such-case'],
    });
    expect(unknownCase.status).toBe(400);
    expect(unknownCase.body).toMatchObject({ type: 'PARAMETER', code: 'PAR-002' });
    const unknownField = await account.client.post('/sandbox/conformance-runs', {
      url: 'http://127.0.0.1:9/',
      x: 1,
    });
    expect(unknownField.body).toMatchObject({ code: 'PAR-001', param: 'x' });

    // A receiver that never answers keeps the run going while the second is asked for.
    const silent = await listen(createServer(() => undefined));
    const first = await account.client.post('/sandbox/conformance-runs', {
      url: silent,
      report_url: reportUrlOf(silent),
      cases: ['print-duplicate'],
    });
    expect(first.status).toBe(201);
    const second = await account.client.post('/sandbox/conformance-runs', { url: silent });
    expect(second.status).toBe(429);
    expect(second.body).toMatchObject({ type: 'RATE_LIMIT', code: 'RATE-001' });

    const theirs = await other.client.get(`/sandbox/conformance-runs/${first.body.id as string}`);
    expect(theirs.status).toBe(404);
    expect(theirs.body).toMatchObject({ type: 'NOT_FOUND', code: 'NF-005' });
    expect((await other.client.get('/sandbox/conformance-runs')).body.items).toEqual([]);

    const report = await finished(account, first.body.id as string);
    expect(report.cases.map((c) => [c.name, c.passed])).toEqual([['print-duplicate', false]]);
    expect((await account.client.get('/sandbox/conformance-runs')).body.items).toHaveLength(1);
  });

  /**
   * The account's webhook secret was made between the check of its runs and the save of the new
   * one: starts sent at once by an account without one all passed the check, and each ran under a
   * secret of its own, all but the last one stored no longer the account's.
   */
  it('starts one run of starts sent at once by an account without a webhook secret, and refuses the others', async () => {
    const account = await newAccount();
    expect((await account.client.delete('/sandbox/webhook-secret')).status).toBe(204);
    const silent = await listen(createServer(() => undefined));
    const body = { url: silent, report_url: reportUrlOf(silent), cases: ['print-duplicate'] };
    const starts = await Promise.all(
      Array.from({ length: 4 }, () => account.client.post('/sandbox/conformance-runs', body)),
    );
    expect(starts.map((start) => start.status).sort()).toEqual([201, 429, 429, 429]);
    const started = starts.find((start) => start.status === 201);
    await finished(account, started?.body.id as string);
    expect((await account.client.get('/sandbox/conformance-runs')).body.items).toHaveLength(1);
  });
});
