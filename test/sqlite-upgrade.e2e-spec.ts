import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppProcess, LINK_SECRET, SignedClient, Stack, previousBuild } from '@tps/testing';
import { amountOf, ensureDaytime, newBody, operationPath, type Json } from './payment-helpers';

/**
 * A sandbox keeps its SQLite file across upgrades (contract, "Two stores"): a file the previous
 * commit's build made and wrote (its migrations, the demo seed, a sandbox account) opens with this
 * build and serves: the account it made authenticates and lists its fleet, and a charge is approved.
 */
describe('a SQLite file written by the previous build', () => {
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'tps-sqlite-upgrade-'));
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('opens and serves with this build', async () => {
    const files = {
      DATABASE_URL: `sqlite:${join(dir, 'api.sqlite')}`,
      SECRETS_KEY_FILE: join(dir, 'api-secrets.key'),
    };
    const previous = await AppProcess.start(
      'api (previous build)',
      join(previousBuild(), 'dist/apps/api/src/main.js'),
      { PORT: '0', HOST: '127.0.0.1', LINK_SECRET, ...files },
      { timeoutMs: 60_000 },
    );
    let account: Json;
    try {
      const made = await new SignedClient(`http://127.0.0.1:${previous.port}`).post<Json>(
        '/sandbox/accounts',
        {},
      );
      expect(made.status).toBe(201);
      account = made.body;
    } finally {
      await previous.stop();
    }

    const stack = await Stack.start({ apiEnv: files });
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
