import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT, Stack } from '@tps/testing';

const run = promisify(execFile);
const PACKAGE = join(REPO_ROOT, 'libs/client');
const TSC = join(REPO_ROOT, 'node_modules/typescript/bin/tsc');

/** A consumer's TypeScript, every export it uses typed by the package's own declarations. */
const CONSUMER = `
import { createTpsClient, verifyWebhook, WebhookVerificationError, type PaymentEvent } from '@tps/client';

export async function charge(baseUrl: string): Promise<string | undefined> {
  const tps = createTpsClient({ baseUrl, merchantId: 'demo-merchant', secretKey: 'demo-secret-key' });
  const { data: clock } = await tps.GET('/sandbox/clock');
  const { data } = await tps.POST('/terminal/v1/sync/charge', {
    body: { amount: { iva: 1600, subtotal_iva: 10000, subtotal_iva0: 0 }, client_transaction_id: 'an-id' },
  });
  return data?.approved === true ? clock?.now : undefined;
}

export function received(secret: string, raw: string, headers: Record<string, string>): string {
  try {
    const event = verifyWebhook<PaymentEvent>(secret, raw, headers);
    return event.status;
  } catch (error) {
    return error instanceof WebhookVerificationError ? 'refused' : 'failed';
  }
}
`;

/**
 * The typed client as an integrator gets it: packed from the checkout, installed into a project
 * of its own outside it (which cannot see the checkout's node_modules), compiled against under
 * tsc --strict, and its example run with plain node.
 */
describe('@tps/client, packed and installed outside the checkout', () => {
  let stack: Stack;
  let dir: string;

  beforeAll(async () => {
    stack = await Stack.start();
    dir = mkdtempSync(join(tmpdir(), 'tps-client-consumer-'));
    // prepack builds the package (JavaScript and declarations) before it is packed.
    await run('npm', ['pack', '--silent', '--pack-destination', dir], { cwd: PACKAGE, timeout: 120_000 });
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true }));
    // Its one dependency comes from this checkout's install, copied (no registry is asked):
    // openapi-fetch and what it depends on.
    for (const name of ['openapi-fetch', 'openapi-typescript-helpers'])
      cpSync(join(REPO_ROOT, 'node_modules', name), join(dir, 'node_modules', name), { recursive: true });
    const tarball = readdirSync(dir).find((file) => /^tps-client-.*\.tgz$/.test(file));
    expect(tarball).toBeDefined();
    await run('npm', ['install', '--offline', '--no-audit', '--no-fund', `./${tarball}`], {
      cwd: dir,
      timeout: 120_000,
    });
  }, 300_000);

  afterAll(async () => {
    await stack?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('holds JavaScript, declarations, the example and the README, and depends on openapi-fetch alone', () => {
    const installed = join(dir, 'node_modules/@tps/client');
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8'));
    expect(Object.keys(manifest.dependencies)).toEqual(['openapi-fetch']);
    const dist = readdirSync(join(installed, 'dist'));
    expect(dist).toEqual(expect.arrayContaining(['index.js', 'index.d.ts', 'webhooks.js', 'generated']));
    expect(readdirSync(join(installed, 'examples'))).toEqual(['charge-and-webhooks.mjs']);
    expect(readFileSync(join(installed, 'README.md'), 'utf8')).toContain('npm install');
    // Nothing of the checkout's own libraries inside.
    for (const file of dist.filter((name) => name.endsWith('.js')))
      expect([file, readFileSync(join(installed, 'dist', file), 'utf8')]).not.toEqual([
        file,
        expect.stringMatching(/@tps\/(contracts|domain|delivery)/),
      ]);
  });

  it('types a consumer that compiles under tsc --strict', async () => {
    writeFileSync(join(dir, 'consumer.ts'), CONSUMER);
    const tsconfig = {
      compilerOptions: {
        strict: true,
        noEmit: true,
        target: 'es2022',
        module: 'nodenext',
        moduleResolution: 'nodenext',
        lib: ['es2023', 'dom'],
        types: [],
      },
      files: ['consumer.ts'],
    };
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig));
    const compiled = await run(process.execPath, [TSC, '-p', dir]).then(
      () => 'compiled',
      (error: { stdout: string }) => error.stdout,
    );
    expect(compiled).toBe('compiled');
  });

  it('runs its example with plain node: a charge, every webhook verified up to the final one', async () => {
    cpSync(join(dir, 'node_modules/@tps/client/examples/charge-and-webhooks.mjs'), join(dir, 'example.mjs'));
    const { stdout } = await run(process.execPath, [join(dir, 'example.mjs')], {
      cwd: dir,
      env: { ...process.env, SANDBOX_URL: stack.apiUrl, NODE_PATH: '' },
      timeout: 90_000,
    });
    const lines = stdout.trim().split('\n');
    expect(lines).toContain('charge TERMINAL_ACKNOWLEDGED (200)');
    expect(lines.filter((line) => line.startsWith('webhook '))).toEqual([
      'webhook CARD_PRESENTED (verified)',
      'webhook APPROVAL_REQUESTED (verified)',
      'webhook APPROVAL (verified)',
    ]);
  });
});
