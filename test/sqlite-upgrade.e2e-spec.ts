import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppProcess, LINK_SECRET, SignedClient, Stack, poll, previousBuild } from '@tps/testing';
import { amountOf, ensureDaytime, newBody, operationPath, type Json } from './payment-helpers';

/**
 * A sandbox keeps its SQLite files across upgrades (contract, "Two stores"): the files the previous
 * commit's apps made and wrote (their migrations, the demo seed, a sandbox account and its fleet)
 * open with this build's apps and serve: the account authenticates and lists its fleet, and a
 * charge is approved.
 */
describe('a SQLite file written by the previous build', () => {
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'tps-sqlite-upgrade-'));
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('opens and serves with this build', async () => {
    const root = previousBuild();
    const files = {
      api: {
        DATABASE_URL: `sqlite:${join(dir, 'api.sqlite')}`,
        SECRETS_KEY_FILE: join(dir, 'api-secrets.key'),
      },
      simulator: { DATABASE_URL: `sqlite:${join(dir, 'terminal.sqlite')}` },
    };
    const common = { PORT: '0', HOST: '127.0.0.1', LINK_SECRET };
    const api = await AppProcess.start('api (previous build)', join(root, 'dist/apps/api/src/main.js'), {
      ...common,
      ...files.api,
    });
    const url = `http://127.0.0.1:${api.port}`;
    let simulator: AppProcess | undefined;
    let account: Json;
    try {
      simulator = await AppProcess.start(
        'terminal-simulator (previous build)',
        join(root, 'dist/apps/terminal-simulator/src/main.js'),
        { ...common, ...files.simulator, API_URL: url },
      );
      await poll(
        'the previous build ready',
        async () => ((await fetch(`${url}/ready`)).status === 200 ? true : undefined),
        60_000,
      );
      const made = await new SignedClient(url).post<Json>('/sandbox/accounts', {});
      expect(made.status).toBe(201);
      account = made.body;
    } finally {
      await simulator?.stop();
      await api.stop();
    }

    const stack = await Stack.start({ apiEnv: files.api, simulatorEnv: files.simulator });
    try {
      const own = stack
        .client()
        .as({ merchantId: String(account.merchant_id), secret: String(account.secret_key) });
      const fleet = await own.get<Json[]>('/sandbox/terminals');
      expect(fleet.status).toBe(200);
      const serials = (terminals: Json[]): string[] => terminals.map((t) => String(t.serialNumber)).sort();
      expect(serials(fleet.body)).toEqual(serials(account.terminals as Json[]));
      const client = stack.client();
      await ensureDaytime(client);
      const charge = await client.post<Json>(
        operationPath('cloud', 'sync', 'charge'),
        newBody({ amount: amountOf(10000) }),
      );
      expect({ status: charge.status, approved: charge.body.approved }).toEqual({
        status: 200,
        approved: true,
      });
    } finally {
      await stack.stop();
    }
  }, 300_000);
});
