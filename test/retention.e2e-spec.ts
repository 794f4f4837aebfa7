import { randomUUID } from 'node:crypto';
import { SecretKeyring } from '@tps/database';
import { poll, Stack, WebhookReceiver, type SignedClient } from '@tps/testing';
import { amountOf, type Json } from './payment-helpers';
import { describeOnStores } from './stores';

const DAY = 86_400;

interface Account {
  merchantId: string;
  client: SignedClient;
  serial: string;
}

async function newAccount(stack: Stack): Promise<Account> {
  const created = (await (
    await fetch(`${stack.apiUrl}/sandbox/accounts`, { method: 'POST' })
  ).json()) as Json;
  const client = stack
    .client()
    .as({ merchantId: created.merchant_id as string, secret: created.secret_key as string });
  return {
    merchantId: created.merchant_id as string,
    client,
    serial: (created.terminals as Json[])[1].serialNumber as string,
  };
}

async function charge(account: Account): Promise<string> {
  const clientTransactionId = randomUUID();
  const answer = await account.client.post(`/terminal/v1/${account.serial}/sync/charge`, {
    amount: amountOf(10000),
    client_transaction_id: clientTransactionId,
  });
  if (answer.status !== 200)
    throw new Error(`charge answered ${answer.status} ${JSON.stringify(answer.body)}`);
  return clientTransactionId;
}

async function rowsOf(stack: Stack, table: string, merchantId: string): Promise<number> {
  const [row] = await stack.store.rows<{ n: number }>(
    'api',
    `SELECT COUNT(*) AS n FROM ${table} WHERE merchant_id = ?`,
    [merchantId],
  );
  return Number(row.n);
}

/**
 * Retention (contract, "Retention"), driven by the sandbox clock (§8): transactions older than
 * RETENTION_DAYS on the merchant's clock are purged with their events, deliveries and print jobs.
 */
describeOnStores('retention of transactions', (store) => {
  let stack: Stack;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    stack = await Stack.start({
      store,
      // Batches of 2: a purge of a few transactions takes several writes.
      apiEnv: { RETENTION_SWEEP_INTERVAL_MS: '300', RETENTION_BATCH: '2' },
    });
    receiver = await WebhookReceiver.start();
  });

  afterAll(async () => {
    await receiver?.close();
    await stack?.stop();
  });

  it('purges transactions older than RETENTION_DAYS on the merchant clock, with their events and deliveries; keeps the rest', async () => {
    const account = await newAccount(stack);
    const old: string[] = [];
    for (let i = 0; i < 5; i += 1) old.push(await charge(account));
    // An async one too, so that it has webhook deliveries and attempts.
    const asyncId = randomUUID();
    const acknowledged = await account.client.post(`/terminal/v1/${account.serial}/async/charge`, {
      amount: amountOf(10000),
      client_transaction_id: asyncId,
      events_webhook_url: receiver.url(),
    });
    expect(acknowledged.status).toBe(200);
    await poll(
      'the async webhooks',
      async () => ((await rowsOf(stack, 'webhook_deliveries', account.merchantId)) >= 3 ? true : undefined),
      10_000,
    );
    const print = await account.client.post(`/terminal/v1/${account.serial}/print`, {
      commands: [{ type: 'text', value: 'kept 90 days' }],
    });
    expect(print.status).toBe(202);

    expect((await account.client.post('/sandbox/clock', { advance_seconds: 91 * DAY })).status).toBe(200);
    const recent = await charge(account);

    await poll(
      'the old transactions to be purged',
      async () => ((await rowsOf(stack, 'transactions', account.merchantId)) === 1 ? true : undefined),
      15_000,
    );
    const [kept] = await stack.store.rows<{ client_transaction_id: string }>(
      'api',
      'SELECT client_transaction_id FROM transactions WHERE merchant_id = ?',
      [account.merchantId],
    );
    expect(kept.client_transaction_id).toBe(recent);
    expect(await rowsOf(stack, 'webhook_deliveries', account.merchantId)).toBe(0);
    await poll(
      'the print job to be purged',
      async () => ((await rowsOf(stack, 'print_jobs', account.merchantId)) === 0 ? true : undefined),
      10_000,
    );
    const orphans = await stack.store.rows<{ n: number }>(
      'api',
      'SELECT (SELECT COUNT(*) FROM transaction_events e WHERE NOT EXISTS (SELECT 1 FROM transactions t WHERE t.id = e.transaction_id)) + ' +
        '(SELECT COUNT(*) FROM webhook_delivery_attempts a WHERE NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.id = a.delivery_id)) AS n',
    );
    expect(orphans[0].n).toBe(0);

    // Online search no longer finds them. (The simulated terminals keep their own records, as a
    // terminal's store does: contract, "Retention".)
    const search = await account.client.post<Json>(
      `/terminal/v1/${account.serial}/sync/transaction_search_online`,
      {
        client_transaction_id: old[0],
      },
    );
    expect(search.body.items).toEqual([]);
  });
});

/** Sandbox accounts with no signed request for ACCOUNT_IDLE_DAYS (real time) are deleted. */
describeOnStores('idle sandbox accounts', (store) => {
  let stack: Stack;

  beforeAll(async () => {
    // About 2 s: the account under test waits that long; the other keeps asking meanwhile.
    stack = await Stack.start({
      store,
      apiEnv: { RETENTION_SWEEP_INTERVAL_MS: '300', ACCOUNT_IDLE_DAYS: String(2 / 86_400) },
    });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('deletes a sandbox account idle for ACCOUNT_IDLE_DAYS with all its data, and keeps one that keeps asking', async () => {
    const idle = await newAccount(stack);
    const active = await newAccount(stack);
    // Its secrets sealed under a key the service does not hold: deleting it opens none of them.
    const sealedAway = await newAccount(stack);
    await charge(idle);
    await charge(sealedAway);
    const gone = new SecretKeyring([{ id: 'gone', key: Buffer.alloc(32, 7) }]);
    await stack.store.execute(
      'api',
      'UPDATE merchants SET secret_key = ?, webhook_secret = ? WHERE merchant_id = ?',
      [
        gone.seal('sk_sealed_away', 'merchants.secret_key'),
        gone.seal('whsec_sealed_away', 'merchants.webhook_secret'),
        sealedAway.merchantId,
      ],
    );
    await poll(
      'the idle accounts to be deleted',
      async () => {
        // The other account keeps asking meanwhile.
        expect((await active.client.get('/sandbox/clock')).status).toBe(200);
        const left = await stack.store.rows(
          'api',
          'SELECT 1 FROM merchants WHERE merchant_id = ? OR merchant_id = ?',
          [idle.merchantId, sealedAway.merchantId],
        );
        return left.length === 0 ? true : undefined;
      },
      15_000,
    );
    expect(await rowsOf(stack, 'transactions', sealedAway.merchantId)).toBe(0);
    expect(await rowsOf(stack, 'terminals', sealedAway.merchantId)).toBe(0);
    expect((await idle.client.get('/sandbox/clock')).status).toBe(401);
    expect(await rowsOf(stack, 'transactions', idle.merchantId)).toBe(0);
    expect(await rowsOf(stack, 'terminals', idle.merchantId)).toBe(0);
    expect((await active.client.get('/sandbox/clock')).status).toBe(200);
    // The demo merchants are no sandbox accounts: never deleted, idle or not.
    expect((await stack.client().get('/sandbox/clock')).status).toBe(200);
  });
});
