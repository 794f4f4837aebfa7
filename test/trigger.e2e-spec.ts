import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { SignedClient, Stack } from '@tps/testing';

const run = promisify(execFile);
const SCRIPT = join(__dirname, '..', 'dist', 'scripts', 'trigger.js');

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

describe('trigger <scenario> (README, "Trigger a scenario")', () => {
  let stack: Stack;
  let client: SignedClient;
  let env: NodeJS.ProcessEnv;
  let serial: string;

  beforeAll(async () => {
    stack = await Stack.start({ instant: [] });
    const response = await fetch(`${stack.apiUrl}/sandbox/accounts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ terminals: 1, pace: 'instant' }),
    });
    expect(response.status).toBe(201);
    const account = (await response.json()) as {
      merchant_id: string;
      secret_key: string;
      terminals: Array<{ serialNumber: string }>;
    };
    serial = account.terminals[0].serialNumber;
    client = stack.client().as({ merchantId: account.merchant_id, secret: account.secret_key });
    env = { ...process.env, MERCHANT_ID: account.merchant_id, SECRET_KEY: account.secret_key };
  });

  afterAll(async () => {
    await stack?.stop();
  });

  async function trigger(...args: string[]): Promise<Ran> {
    try {
      const { stdout, stderr } = await run('node', [SCRIPT, ...args, '--sandbox', stack.apiUrl], { env });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string };
      return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
    }
  }

  /** The statuses of the printed event lines (`  <occurred_at>  <status>`), in order. */
  function eventsIn(stdout: string): string[] {
    return [...stdout.matchAll(/^ {2}\d{4}-\S+Z {2}([A-Z_]+)$/gm)].map((match) => match[1]);
  }

  async function linkOf(terminal: string): Promise<string | undefined> {
    const fleet = await client.get<Array<{ serialNumber: string; link: string }>>('/sandbox/terminals');
    return fleet.body.find((t) => t.serialNumber === terminal)?.link;
  }

  it('approve: prints the request, the approved answer and the events, exit 0', async () => {
    const ran = await trigger('approve');
    expect(ran.code).toBe(0);
    expect(ran.stdout).toContain(`> POST /terminal/v1/${serial}/sync/charge`);
    expect(ran.stdout).toContain('"subtotal_iva": 10000');
    expect(ran.stdout).toMatch(/< 200\n\{\n {2}"approved": true/);
    expect(eventsIn(ran.stdout)).toEqual([
      'TERMINAL_ACKNOWLEDGED',
      'CARD_PRESENTED',
      'APPROVAL_REQUESTED',
      'APPROVAL',
    ]);
    expect(ran.stdout).toContain('PASS  approve: APPROVAL 00');
  });

  it('decline-51: prints the decline with its response code, exit 0', async () => {
    const ran = await trigger('decline-51', '--terminal', serial);
    expect(ran.code).toBe(0);
    expect(ran.stdout).toContain('"subtotal_iva": 10051');
    expect(ran.stdout).toContain('"approved": false');
    expect(ran.stdout).toContain('"responseCode": "51"');
    expect(ran.stdout).toMatch(/DECLINED$/m);
    expect(ran.stdout).toContain('PASS  decline-51: DECLINED 51');
  });

  it('offline: the charge gets 503 TER-001 while offline, and the terminal is back online after', async () => {
    const ran = await trigger('offline');
    expect(ran.code).toBe(0);
    expect(ran.stdout).toContain(`> POST /sandbox/terminals/${serial}/offline`);
    expect(ran.stdout).toMatch(/< 503\n\{[^}]*"code": "TER-001"/);
    expect(ran.stdout).toContain(`> POST /sandbox/terminals/${serial}/online`);
    expect(ran.stdout).toContain('PASS  offline: NOT_TAKEN TER-001');
    expect(await linkOf(serial)).toBe('up');
  });

  it('--async: the acknowledgement, then the events as search shows them until final', async () => {
    const ran = await trigger('cancel', '--async');
    expect(ran.code).toBe(0);
    expect(ran.stdout).toContain(`> POST /terminal/v1/${serial}/async/charge`);
    expect(ran.stdout).toMatch(/< 200\n\{[\s\S]*"status": "TERMINAL_ACKNOWLEDGED"/);
    expect(eventsIn(ran.stdout)).toEqual(['TERMINAL_ACKNOWLEDGED', 'CARD_PRESENTED', 'TERMINAL_CANCELED']);
    expect(ran.stdout).toContain('PASS  cancel: TERMINAL_CANCELED');
  });

  it('present-card: the cardholder control presents a card while the sync charge waits', async () => {
    const ran = await trigger('present-card');
    expect(ran.code).toBe(0);
    expect(ran.stdout).toContain(`> POST /sandbox/terminals/${serial}/card`);
    expect(ran.stdout).toContain('"action": "present"');
    expect(ran.stdout).toContain('PASS  present-card: APPROVAL 00');
  });

  it('exits 1 when the scenario does not behave as named: approve on a terminal left offline', async () => {
    expect((await client.post(`/sandbox/terminals/${serial}/offline`)).status).toBe(200);
    try {
      const ran = await trigger('approve');
      expect(ran.code).toBe(1);
      expect(ran.stdout).toContain('FAIL  approve');
      expect(ran.stdout).toContain('status: expected APPROVAL, got NOT_TAKEN');
    } finally {
      expect((await client.post(`/sandbox/terminals/${serial}/online`)).status).toBe(200);
    }
  });

  it('--list prints one line per scenario; an unknown scenario is a usage error (exit 2)', async () => {
    const list = await trigger('--list');
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^decline-51 +declined by the acquirer with ISO response code 51$/m);
    const unknown = await trigger('no-such-scenario');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown scenario "no-such-scenario"');
  });
});
