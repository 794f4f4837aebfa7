import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { verifyWebhook } from '@tps/delivery';
import {
  DEMO_MERCHANT,
  OTHER_MERCHANT,
  neverAnswer,
  poll,
  Stack,
  WebhookReceiver,
  type SignedClient,
} from '@tps/testing';
import { amountOf, newBody, type Json } from './payment-helpers';
import { describeOnStores } from './stores';

interface MerchantRow {
  merchant_id: string;
  secret_key: string;
  webhook_secret: string | null;
}

const KEY_2 = 'b'.repeat(64);
const KEY_3 = 'c'.repeat(64);
const KEY_4 = 'd'.repeat(64);

/**
 * Secrets at rest (contract, "Secrets at rest"): merchant secret keys and webhook secrets are
 * stored sealed with AES-256-GCM, rows left in clear are sealed when the service starts, and a
 * new key re-seals every row in the background while the old one still opens them.
 */
describeOnStores('secrets at rest', (store) => {
  let stack: Stack;
  let account: { merchant_id: string; secret_key: string };
  let client: SignedClient;
  let webhookSecret: string;

  const merchantRows = (): Promise<MerchantRow[]> =>
    stack.store.rows<MerchantRow>('api', 'SELECT merchant_id, secret_key, webhook_secret FROM merchants');

  /** Every secret a reader of the store must not find. */
  const secrets = (): string[] => [
    DEMO_MERCHANT.secret,
    OTHER_MERCHANT.secret,
    account.secret_key,
    webhookSecret,
    webhookSecret.slice('whsec_'.length),
  ];

  /** The SQLite file and its log as bytes, or the merchants table of PostgreSQL as text. */
  async function storedBytes(): Promise<string> {
    if (store === 'postgres') return JSON.stringify(await merchantRows());
    const file = stack.apiDatabase;
    const parts = [file, `${file}-wal`].filter((path) => existsSync(path)).map((path) => readFileSync(path));
    return Buffer.concat(parts).toString('latin1');
  }

  async function expectNoSecretStored(): Promise<void> {
    const bytes = await storedBytes();
    for (const secret of secrets()) expect(bytes).not.toContain(secret);
    for (const row of await merchantRows()) {
      expect(row.secret_key).toMatch(/^v1:[A-Za-z0-9-]+:/);
      if (row.webhook_secret !== null) expect(row.webhook_secret).toMatch(/^v1:[A-Za-z0-9-]+:/);
    }
  }

  async function expectSigningWorks(): Promise<void> {
    expect((await stack.client().get('/sandbox/terminals')).status).toBe(200);
    expect((await stack.client().as(OTHER_MERCHANT).get('/sandbox/terminals')).status).toBe(200);
    expect((await client.get('/sandbox/terminals')).status).toBe(200);
  }

  beforeAll(async () => {
    stack = await Stack.start({ store });
    const created = await fetch(`${stack.apiUrl}/sandbox/accounts`, { method: 'POST' });
    account = (await created.json()) as typeof account;
    client = stack.client().as({ merchantId: account.merchant_id, secret: account.secret_key });
    webhookSecret = (await client.post<{ secret: string }>('/sandbox/webhook-secret')).body.secret;
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('stores no secret key and no webhook secret in clear, with no SECRETS_KEY (the sandbox key)', async () => {
    expect(stack.api.log).toMatch(/secrets at rest: no SECRETS_KEY: the sandbox's local key in/);
    await expectNoSecretStored();
    await expectSigningWorks();
  });

  it('seals the rows found in clear when it starts, leaving no trace of them in the file', async () => {
    // A store written before secrets were sealed: every secret in clear.
    await stack.api.stop();
    for (const [merchantId, secret] of [
      [DEMO_MERCHANT.merchantId, DEMO_MERCHANT.secret],
      [OTHER_MERCHANT.merchantId, OTHER_MERCHANT.secret],
      [account.merchant_id, account.secret_key],
    ]) {
      await stack.store.execute('api', 'UPDATE merchants SET secret_key = ? WHERE merchant_id = ?', [
        secret,
        merchantId,
      ]);
    }
    await stack.store.execute('api', 'UPDATE merchants SET webhook_secret = ? WHERE merchant_id = ?', [
      webhookSecret,
      account.merchant_id,
    ]);
    expect((await merchantRows()).filter((row) => row.secret_key.startsWith('v1:'))).toEqual([]);
    await stack.startApi({ PORT: String(stack.api.port) });
    // Replaced values are overwritten in the file (secure_delete), not left in its free space.
    await poll(
      'the secrets to be sealed',
      async () => {
        const bytes = await storedBytes();
        return secrets().some((secret) => bytes.includes(secret)) ? undefined : true;
      },
      10_000,
    );
    await expectNoSecretStored();
    await expectSigningWorks();
  });

  it('re-seals every row under a new key while the old one still opens them; then the old key can go', async () => {
    // The sandbox's local key, named as the service names it, moves to SECRETS_KEY behind a new one.
    const local = readFileSync(join(stack.dir, 'api-secrets.key'), 'utf8').trim();
    const localId = `local-${createHash('sha256').update(Buffer.from(local, 'hex')).digest('hex').slice(0, 8)}`;
    await stack.api.stop();
    await stack.startApi({ PORT: String(stack.api.port), SECRETS_KEY: `k2:${KEY_2},${localId}:${local}` });
    await poll(
      'every secret to be sealed under k2',
      async () => {
        const rows = await merchantRows();
        const values = rows.flatMap((row) => [row.secret_key, row.webhook_secret ?? 'v1:k2:']);
        return values.every((value) => value.startsWith('v1:k2:')) ? true : undefined;
      },
      10_000,
    );
    await expectNoSecretStored();

    await stack.api.stop();
    await stack.startApi({ PORT: String(stack.api.port), SECRETS_KEY: `k2:${KEY_2}` });
    await stack.waitLinked(5);
    await expectSigningWorks();
    // The webhook secret, read for each delivery, opens under the new key too.
    const receiver = await WebhookReceiver.start();
    try {
      const serial = (await client.get<Json[]>('/sandbox/terminals')).body[0].serialNumber as string;
      const body = newBody({ amount: amountOf(10000), events_webhook_url: receiver.url() });
      expect((await client.post(`/terminal/v1/${serial}/async/charge`, body)).status).toBe(200);
      await receiver.waitFor((all) => all.length >= 1);
      const [request] = receiver.received;
      const headers = {
        'webhook-id': request.headers['webhook-id'] as string,
        'webhook-timestamp': request.headers['webhook-timestamp'] as string,
        'webhook-signature': request.headers['webhook-signature'] as string,
      };
      expect(verifyWebhook(webhookSecret, headers, request.raw, Math.floor(request.at / 1000))).toBe(true);
    } finally {
      await receiver.close();
    }
  });

  it('names a key it lacks at start-up, answers 500 INT-004 naming it, and refuses to start in production', async () => {
    // The database moved to a process with another SECRETS_KEY: every secret is sealed under k2.
    const merchants = (await merchantRows()).length;
    await stack.api.stop();
    await stack.startApi({ PORT: String(stack.api.port), SECRETS_KEY: `k3:${KEY_3}` });
    expect(stack.api.log).toContain(
      `secrets sealed under key k2, which SECRETS_KEY does not hold: ${merchants} merchants cannot be opened`,
    );
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const answer = await client.get<{ type: string; code: string; message: string; request_id: string }>(
        '/sandbox/terminals',
      );
      expect(answer.status).toBe(500);
      expect(answer.body).toMatchObject({ type: 'INTERNAL', code: 'INT-004' });
      expect(answer.body.message).toMatch(
        /sealed under key k2, which this service's SECRETS_KEY does not hold/,
      );
      // Its log line names the request and the key (lines are written once per event-loop turn).
      await poll(
        'the log line of the request',
        async () => (stack.api.log.includes(`request ${answer.body.request_id}:`) ? true : undefined),
        5_000,
      );
    }

    await stack.api.stop();
    await expect(stack.startApi({ PROFILE: 'production', SECRETS_KEY: `k3:${KEY_3}` })).rejects.toThrow(
      /refusing to start: secrets sealed under key k2, which SECRETS_KEY does not hold/,
    );
    // The key added back, after the one that seals: the same merchants sign again.
    await stack.startApi({ PORT: String(stack.api.port), SECRETS_KEY: `k3:${KEY_3},k2:${KEY_2}` });
    expect(stack.api.log).not.toContain('does not hold');
    await expectSigningWorks();
  });

  it('records each attempt whose webhook secret it cannot open as secret_unavailable, sends nothing, and stops on the retry schedule', async () => {
    await poll(
      'every secret to be sealed under k3',
      async () => {
        const values = (await merchantRows()).flatMap((row) => [
          row.secret_key,
          row.webhook_secret ?? 'v1:k3:',
        ]);
        return values.every((value) => value.startsWith('v1:k3:')) ? true : undefined;
      },
      10_000,
    );
    await stack.waitLinked(5);
    // Three deliveries pending, none attempted yet: the first attempt hangs and is cut by the stop.
    const receiver = await WebhookReceiver.start(neverAnswer);
    try {
      const serial = (await client.get<Json[]>('/sandbox/terminals')).body[0].serialNumber as string;
      const body = newBody({ amount: amountOf(10000), events_webhook_url: receiver.url() });
      const clientTransactionId = String(body.client_transaction_id);
      expect((await client.post(`/terminal/v1/${serial}/async/charge`, body)).status).toBe(200);
      await poll(
        'the three deliveries, the first one under way',
        async () => {
          const [row] = await stack.store.rows<{ n: number }>(
            'api',
            'SELECT COUNT(*) AS n FROM webhook_deliveries WHERE client_transaction_id = ?',
            [clientTransactionId],
          );
          return Number(row.n) === 3 && receiver.received.length === 1 ? true : undefined;
        },
        10_000,
      );
      // And a print job whose one callback hangs, cut by the stop too.
      const printPath = `/terminal/v1/${serial}/print`;
      const job = await client.post<Json>(printPath, {
        commands: [{ type: 'text', value: 'sealed' }],
        webhookUrl: receiver.url('/print'),
      });
      expect(job.status).toBe(202);
      await receiver.waitFor((all) => all.some((request) => request.path === '/print'), 10_000);
      await stack.api.stop();
      // Every secret is sealed under k3, which this process lacks. The real retry schedule at
      // 1/500 of its durations: 10 attempts within 1.8 s.
      await stack.startApi({
        PORT: String(stack.api.port),
        SECRETS_KEY: `k4:${KEY_4}`,
        WEBHOOK_RETRY_SCALE: '0.002',
        METRICS_PORT: '0',
      });
      const attempts = await poll(
        'the three deliveries to fail',
        async () => {
          const rows = await stack.store.rows<{ state: string; failure: string | null; errors: string }>(
            'api',
            'SELECT d.state AS state, d.failure AS failure, ' +
              "(SELECT COUNT(*) FROM webhook_delivery_attempts a WHERE a.delivery_id = d.id AND a.error = 'secret_unavailable' AND a.status_code IS NULL) AS errors " +
              'FROM webhook_deliveries d WHERE d.client_transaction_id = ? ORDER BY d.position',
            [clientTransactionId],
          );
          return rows.every((row) => row.state === 'failed') ? rows : undefined;
        },
        20_000,
      );
      expect(attempts.map((row) => [row.failure, Number(row.errors)])).toEqual([
        ['attempts_exhausted', 10],
        ['attempts_exhausted', 10],
        ['attempts_exhausted', 10],
      ]);
      // The print callback's one attempt, made again after the stop, is spent without sending.
      const [printed] = await poll(
        'the print callback recorded',
        async () => {
          const rows = await stack.store.rows<{ callback: string | null }>(
            'api',
            'SELECT callback FROM print_jobs WHERE print_job_id = ?',
            [job.body.printJobId],
          );
          return rows[0]?.callback != null ? rows : undefined;
        },
        10_000,
      );
      expect(JSON.parse(String(printed.callback))).toMatchObject({
        statusCode: null,
        error: 'secret_unavailable',
      });
      // Nothing sent, unsigned or otherwise, beyond the attempts cut before the restart.
      expect(receiver.received.map((request) => request.path)).toEqual(['/hook', '/print']);
      expect(stack.api.log).toContain(
        "not sent, the merchant's webhook secret is sealed under key k3, which SECRETS_KEY does not hold",
      );
      const metricsPort = /metrics on port (\d+)/.exec(stack.api.log)?.[1];
      const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
      // At least these 30: a delivery of an earlier test still pending goes the same way.
      const unsent = /^tps_webhook_attempts_unsent_total\{[^}]*\} (\d+)$/m.exec(metrics)?.[1];
      expect(Number(unsent)).toBeGreaterThanOrEqual(30);

      // The key added back: the merchant reads why its webhooks failed.
      await stack.api.stop();
      await stack.startApi({ PORT: String(stack.api.port), SECRETS_KEY: `k4:${KEY_4},k3:${KEY_3}` });
      const listed = await client.get<{ items: Json[] }>(
        `/sandbox/deliveries?client_transaction_id=${clientTransactionId}`,
      );
      expect(listed.status).toBe(200);
      for (const delivery of listed.body.items) {
        expect(delivery.state).toBe('failed');
        expect((delivery.attempts as Json[]).map((attempt) => attempt.error)).toEqual(
          Array.from({ length: 10 }, () => 'secret_unavailable'),
        );
      }
    } finally {
      await receiver.close();
    }
  });

  it('refuses to start in the production profile without SECRETS_KEY', async () => {
    await stack.api.stop();
    await expect(stack.startApi({ PROFILE: 'production' })).rejects.toThrow(
      /SECRETS_KEY must be set in the production profile/,
    );
  });
});
