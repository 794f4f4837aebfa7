import { spawn, execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort, poll, REPO_ROOT, Stack } from '@tps/testing';

const run = promisify(execFile);

/** A server holding a port, as another program would; it hangs up on whoever connects. */
function listening(port = 0): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer((socket) => socket.destroy());
    server.once('error', reject);
    server.listen(port, () => resolve(server));
  });
}

async function readiness(url: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${url}/ready`);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('GET /ready (contract §14)', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await Stack.start({ withoutSimulator: true, apiEnv: { FLEET_SYNC_INTERVAL_MS: '100' } });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('is 503 with what it waits for until the simulator and every terminal are linked, then 200', async () => {
    const before = await readiness(stack.apiUrl);
    expect(before).toEqual({
      status: 503,
      body: {
        ready: false,
        waiting_for: ['simulator', 'terminal SIM0000001', 'terminal SIM0000002', 'terminal SIM0000003'],
      },
    });
    // /health answers 200 all along: it says the process is up, not that it can serve.
    expect((await fetch(`${stack.apiUrl}/health`)).status).toBe(200);

    await stack.startSimulator();
    const after = await poll(
      '/ready to answer 200',
      async () => {
        const answer = await readiness(stack.apiUrl);
        return answer.status === 200 ? answer : undefined;
      },
      10_000,
    );
    expect(after.body).toEqual({ ready: true });
  });

  it('counts a terminal the sandbox set offline as intended, not as waited for', async () => {
    const offline = await stack.client().post('/sandbox/terminals/SIM0000002/offline');
    expect(offline.status).toBe(200);
    expect((await readiness(stack.apiUrl)).status).toBe(200);
    expect((await stack.client().post('/sandbox/terminals/SIM0000002/online')).status).toBe(200);
  });

  it('links a terminal the merchant CLI adds while the service runs, by itself', async () => {
    const { stdout } = await run(
      process.execPath,
      [
        join(REPO_ROOT, 'dist/scripts/merchant.js'),
        'add',
        'acme',
        '--terminal',
        'TPV0000001',
        '--bound',
        'TPV0000001',
      ],
      { env: { ...process.env, DATABASE_URL: `sqlite:${stack.apiDatabase}` } },
    );
    const provisioned = JSON.parse(stdout) as { merchant_id: string; secret_key: string };
    const acme = stack.client().as({ merchantId: provisioned.merchant_id, secret: provisioned.secret_key });
    const terminal = await poll(
      'the CLI terminal to link',
      async () => {
        const fleet = await acme.get<Array<Record<string, unknown>>>('/sandbox/terminals');
        return fleet.body[0]?.link === 'up' ? fleet.body[0] : undefined;
      },
      10_000,
    );
    expect(terminal).toMatchObject({ serialNumber: 'TPV0000001', link: 'up' });
    expect((await readiness(stack.apiUrl)).status).toBe(200);
    expect((await acme.patch('/sandbox/terminals/TPV0000001', { pace: 'instant' })).status).toBe(200);
    const charge = await acme.post<Record<string, unknown>>('/terminal/v1/sync/charge', {
      amount: { iva: 1600, subtotal_iva: 10000, subtotal_iva0: 0 },
      client_transaction_id: crypto.randomUUID(),
    });
    expect(charge.status).toBe(200);
    expect(charge.body.approved).toBe(true);
  });
});

describe('npm start and the CI recipe', () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tps-start-'));
  });

  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  /** Runs the launcher as `npm start` does after the build: its pid, then its exit code and output. */
  function launch(env: Record<string, string>): {
    pid: number;
    exited: Promise<{ code: number | null; output: string }>;
    output: () => string;
  } {
    const child = spawn(process.execPath, [join(REPO_ROOT, 'dist/scripts/start.js')], {
      env: {
        ...process.env,
        NO_COLOR: '1',
        API_DATABASE_URL: `sqlite:${join(dir, 'api.sqlite')}`,
        SIMULATOR_DATABASE_URL: `sqlite:${join(dir, 'terminal.sqlite')}`,
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    const exited = new Promise<{ code: number | null; output: string }>((resolve) =>
      child.once('exit', (code) => {
        clearTimeout(timer);
        resolve({ code, output });
      }),
    );
    return { pid: child.pid ?? 0, exited, output: () => output };
  }

  const start = (env: Record<string, string>) => launch(env).exited;

  /** Runs `sandbox:wait` against a port of this machine: its exit code and what it printed to stderr. */
  function sandboxWait(port: number, ...args: string[]): Promise<{ code: number; stderr: string }> {
    const script = join(REPO_ROOT, 'dist/scripts/sandbox-wait.js');
    return run(process.execPath, [script, '--url', `http://127.0.0.1:${port}`, ...args]).then(
      ({ stderr }) => ({ code: 0, stderr }),
      (error: { code: number; stderr: string }) => error,
    );
  }

  it.each(['SIMULATOR_PORT', 'API_PORT'])('exits non-zero when %s is taken', async (taken) => {
    const busy = await listening();
    try {
      const { port } = busy.address() as AddressInfo;
      const other = await freePort();
      const ports =
        taken === 'API_PORT'
          ? { API_PORT: String(port), SIMULATOR_PORT: String(other) }
          : { API_PORT: String(other), SIMULATOR_PORT: String(port) };
      const { code, output } = await start(ports);
      expect(code).not.toBe(0);
      expect(code).not.toBeNull();
      expect(output).toContain('EADDRINUSE');
    } finally {
      await new Promise((done) => busy.close(done));
    }
  });

  it('names the API, docs, console and simulator URLs in one line once the sandbox is ready', async () => {
    const [api, simulator] = [await freePort(), await freePort()];
    const launcher = launch({ API_PORT: String(api), SIMULATOR_PORT: String(simulator) });
    try {
      const line = await poll(
        'the start-up line',
        async () => /^sandbox ready: .*$/m.exec(launcher.output())?.[0],
        45_000,
      );
      expect(line).toBe(
        `sandbox ready: API http://localhost:${api} · docs http://localhost:${api}/docs · console http://localhost:${api}/console · simulator http://localhost:${simulator}`,
      );
      expect((await readiness(`http://127.0.0.1:${api}`)).status).toBe(200);
    } finally {
      process.kill(launcher.pid, 'SIGTERM');
      expect((await launcher.exited).code).toBe(0);
    }
  });

  it('sandbox:wait --pid fails at once when the start it waits for failed, not at its timeout', async () => {
    const busy = await listening();
    try {
      const { port } = busy.address() as AddressInfo;
      const launcher = launch({ API_PORT: String(port), SIMULATOR_PORT: String(await freePort()) });
      const told = sandboxWait(port, '--timeout', '60', '--pid', String(launcher.pid));
      expect((await launcher.exited).code).not.toBe(0);
      const answer = await told;
      expect(answer.code).toBe(1);
      expect(answer.stderr).toContain(`the sandbox process ${launcher.pid} is gone`);
    } finally {
      await new Promise((done) => busy.close(done));
    }
  });

  it('sandbox:wait --pid is not ready on another sandbox answering the port: its start failed, exit 1', async () => {
    const older = await Stack.start();
    try {
      expect((await readiness(older.apiUrl)).status).toBe(200);
      const launcher = launch({ API_PORT: String(older.api.port), SIMULATOR_PORT: String(await freePort()) });
      const answer = await sandboxWait(older.api.port, '--timeout', '60', '--pid', String(launcher.pid));
      const { code, output } = await launcher.exited;
      expect(output).toContain('EADDRINUSE');
      expect(code).not.toBe(0);
      expect(answer.code).toBe(1);
      expect(answer.stderr).toContain(`answered by another process (${older.api.pid}), not ${launcher.pid}`);
      expect(answer.stderr).toContain(`the sandbox process ${launcher.pid} is gone`);
    } finally {
      await older.stop();
    }
  });

  it('sandbox:wait --help prints its usage and exits 0', async () => {
    const { stdout } = await run(process.execPath, [
      join(REPO_ROOT, 'dist/scripts/sandbox-wait.js'),
      '--help',
    ]);
    expect(stdout).toContain('usage: npm run sandbox:wait -- [--url URL] [--timeout SECONDS] [--pid PID]');
  });

  it('sandbox:wait never says ready for a port that resets every connection: it times out with 1', async () => {
    const busy = await listening();
    try {
      const { port } = busy.address() as AddressInfo;
      const answer = await sandboxWait(port, '--timeout', '2');
      expect(answer.code).toBe(1);
      expect(answer.stderr).toContain('sandbox not ready after 2 s');
    } finally {
      await new Promise((done) => busy.close(done));
    }
  });

  // Its timeout is above the script's own 90 s, so that a slow start fails with the script's output.
  it('runs the CI script: start, wait for ready, create an account, charge, tear down', async () => {
    const { stdout } = await run('bash', [join(REPO_ROOT, 'test/ci/sandbox-smoke.sh')], {
      env: { ...process.env, API_PORT: String(await freePort()), SIMULATOR_PORT: String(await freePort()) },
      timeout: 90_000,
    });
    expect(stdout).toMatch(/sandbox ready at http:\/\/127\.0\.0\.1:\d+\n/);
    expect(stdout).toMatch(/charge [0-9a-f-]{36} approved\n/);
    expect(stdout).toMatch(/account acct_[0-9a-f]{24} deleted\n/);
  }, 120_000);
});
