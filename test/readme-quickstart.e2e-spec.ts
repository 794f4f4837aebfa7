import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort, REPO_ROOT } from '@tps/testing';

const run = promisify(execFile);

/** The bash blocks of the README's quickstart, in order, unindented, as a person pastes them. */
function quickstart(): string {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('## Quickstart');
  const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
  const blocks = [...section.matchAll(/^( *)```bash\n([\s\S]*?)^ *```/gm)].map(([, indent, code]) =>
    code
      .split('\n')
      .map((line) => line.slice(indent.length))
      .join('\n'),
  );
  return blocks.join('\n');
}

describe('the README quickstart', () => {
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'tps-quickstart-'));
  });

  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  const sandboxLog = (): string => {
    try {
      return readFileSync(join(dir, 'sandbox.log'), 'utf8');
    } catch (error) {
      return `(none: ${String(error)})`;
    }
  };

  it('runs pasted top to bottom: every step answers as the README says', async () => {
    const [api, simulator, receiver] = [await freePort(), await freePort(), await freePort()];
    // The sandbox's ports are taken from API_PORT and SIMULATOR_PORT by the blocks themselves, and
    // the build from the page's first command: nothing installs or builds again.
    const pasted = quickstart();
    expect(pasted).not.toMatch(/npm ci|npm run build|localhost:3000/);
    // The only changes: the receiver's port free on this machine and the log in a folder of its own.
    const script = pasted
      .replaceAll('127.0.0.1:4000', `127.0.0.1:${receiver}`)
      .replaceAll('listen(4000)', `listen(${receiver})`)
      .replace('sandbox.log', join(dir, 'sandbox.log'));
    const { stdout } = await run(
      'bash',
      ['-c', `trap 'kill \${SANDBOX:-} \${RECEIVER:-} 2>/dev/null' EXIT\n${script}\nsleep 1`],
      {
        cwd: REPO_ROOT,
        env: {
          ...process.env,
          API_PORT: String(api),
          SIMULATOR_PORT: String(simulator),
          API_DATABASE_URL: `sqlite:${join(dir, 'api.sqlite')}`,
          SIMULATOR_DATABASE_URL: `sqlite:${join(dir, 'terminal.sqlite')}`,
        },
        timeout: 120_000,
        maxBuffer: 16 * 1024 * 1024,
      },
    ).catch((error: Error & { stdout?: string }) => {
      // Killed at its limit, or failed: what the script printed and what the sandbox logged.
      throw new Error(
        `${error.message}\nthe script printed:\n${error.stdout ?? ''}\nsandbox.log:\n${sandboxLog()}`,
      );
    });
    // A sandbox that never got ready says why in its log (a port taken meanwhile, a slow start).
    if (!stdout.includes('sandbox ready at'))
      throw new Error(`step 1 never saw the sandbox ready; sandbox.log:\n${sandboxLog()}`);
    expect(stdout).toContain('sandbox ready at');
    expect(stdout).toMatch(/"merchant_id":"acct_[0-9a-f]{24}"/);
    // Step 4's receiver prints the async charge's three webhooks.
    for (const status of ['CARD_PRESENTED', 'APPROVAL_REQUESTED', 'APPROVAL'])
      expect(stdout).toMatch(new RegExp(`webhook /hook .*"status":"${status}"`));
    expect(stdout).toMatch(/"business_state":"SETTLED"/);
    expect(stdout).toMatch(/whsec_/);
    // Step 7 prints the tip, the refund, the re-authorization and the capture.
    expect(stdout.match(/"approved":true/g)?.length).toBe(4);
    // Step 8: the rules read the moved clock.
    expect(stdout).toContain('"offset_seconds":2505600');
    expect(stdout).toContain('"code":"TRX-004"');
    expect(stdout).toContain('"code":"TRX-003"');
    // Step 9: the standard receipt of the charge.
    expect(stdout).toContain('TOTAL MXN');
    // Step 10: offline is TER-001; the card control and the abort act.
    expect(stdout).toContain('"code":"TER-001"');
    expect(stdout).toContain('"action":"present"');
    expect(stdout).toContain('"status":"TERMINAL_CANCELED"');
    // Step 11: reset leaves nothing; after the delete the credentials are refused.
    expect(stdout).toContain('{"reset":true');
    expect(stdout).toContain('{"items":[],"next_cursor":null}');
    expect(stdout.trimEnd()).toMatch(/"code":"AUTH-001"[^\n]*$/);
    expect(stdout).not.toMatch(/"code":"(INT-001|PAR-00\d|NF-00\d|AUTH-002)"/);
    // Past the script's own 120 s: a dozen steps, each a process of its own, beside other suites.
  }, 180_000);
});
