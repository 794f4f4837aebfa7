import { poll, type SignedClient, type Stack, type WebhookReceiver } from '@tps/testing';
import {
  amountOf,
  finished,
  moveToMorning,
  newBody,
  operationPath,
  searchPath,
  type Json,
} from './payment-helpers';

/** The sandbox's flows, each once, for the SQL snapshots (test/sql-snapshots.e2e-spec.ts). */

async function ok<T>(what: string, answer: Promise<{ status: number; body: T }>, status = 200): Promise<T> {
  const { status: got, body } = await answer;
  if (got !== status) throw new Error(`${what}: ${got} ${JSON.stringify(body)}`);
  return body;
}

/** Sign-up and a signed request as the new account, then its removal. */
async function accounts(client: SignedClient): Promise<void> {
  const account = await ok<Json>('sign-up', client.post('/sandbox/accounts', {}), 201);
  const own = client.as({ merchantId: account.merchant_id, secret: account.secret_key });
  await ok('as the new account', own.get('/sandbox/terminals'));
  await ok('account removed', own.delete('/sandbox/accounts/me'), 204);
}

/** Sync charges, Local and Cloud, approved and declined; a refund and a void of them. */
async function syncMoney(client: SignedClient): Promise<void> {
  const approved = await ok<Json>(
    'sync charge',
    client.post(operationPath('local', 'sync', 'charge'), newBody({ amount: amountOf(10000) })),
  );
  const reference = approved.rawResponse.transaction_reference as string;
  await ok(
    'declined charge',
    client.post(operationPath('cloud', 'sync', 'charge'), newBody({ amount: amountOf(10051) })),
  );
  await ok(
    'refund',
    client.post(
      operationPath('local', 'sync', 'refund'),
      newBody({ transaction_reference: reference, amount: amountOf(4000) }),
    ),
  );
  const second = await ok<Json>(
    'second charge',
    client.post(operationPath('cloud', 'sync', 'charge'), newBody({ amount: amountOf(3000) })),
  );
  await ok(
    'void',
    client.post(
      operationPath('cloud', 'sync', 'void'),
      newBody({ transaction_reference: second.rawResponse.transaction_reference }),
    ),
  );
}

/** An async charge and an async void, their webhooks delivered, the first after a failed try. */
async function asyncMoney(client: SignedClient, receiver: WebhookReceiver): Promise<string> {
  const charge = newBody({ amount: amountOf(10000), events_webhook_url: receiver.url('/retried') });
  await ok('async charge', client.post(operationPath('cloud', 'async', 'charge'), charge));
  const item = await finished(client, charge.client_transaction_id as string);
  const voided = newBody({
    transaction_reference: item.transaction_reference,
    events_webhook_url: receiver.url('/hook'),
  });
  await ok('async void', client.post(operationPath('cloud', 'async', 'void'), voided));
  await finished(client, voided.client_transaction_id as string);
  // The receiver fails the first webhook: the same webhook comes again.
  await receiver.waitFor((all) => {
    const ids = all.filter((r) => r.path === '/retried').map((r) => r.headers['webhook-id']);
    return new Set(ids).size < ids.length;
  }, 15_000);
  return charge.client_transaction_id as string;
}

/** A sync charge aborted while the terminal waits for a card. */
async function abort(client: SignedClient): Promise<void> {
  await ok('realistic pace', client.patch('/sandbox/terminals/SIM0000002', { pace: 'realistic' }));
  const body = newBody({ amount: amountOf(10097) }); // 97: waits for a person
  const charge = client.post<Json>(operationPath('cloud', 'sync', 'charge'), body);
  await poll(
    'the charge to be acknowledged',
    async () => {
      const answer = await client.post<Json>(searchPath('cloud', 'online'), {
        client_transaction_id: body.client_transaction_id,
      });
      return answer.body.items?.[0] === undefined ? undefined : true;
    },
    10_000,
  );
  await ok(
    'abort',
    client.post('/terminal/v1/SIM0000002/sync/abort', {
      target_client_transaction_id: body.client_transaction_id,
    }),
  );
  await charge;
  await ok('instant pace', client.patch('/sandbox/terminals/SIM0000002', { pace: 'instant' }));
}

/**
 * A print job with its callback, read back once the callback's outcome is stored. The receiver
 * answers the callback after CALLBACK_ANSWER_MS (sql-snapshots.e2e-spec.ts): its lease is renewed
 * meanwhile, in every run.
 */
async function print(client: SignedClient, receiver: WebhookReceiver): Promise<void> {
  const job = await ok<Json>(
    'print',
    client.post('/terminal/v1/SIM0000002/print', {
      commands: [{ type: 'text', value: 'snapshot' }],
      webhookUrl: receiver.url('/print'),
    }),
    202,
  );
  await poll(
    'the print callback outcome stored',
    async () => {
      const read = await ok<Json>(
        'print read',
        client.get(`/terminal/v1/SIM0000002/print/${String(job.printJobId)}`),
      );
      return read.callback === undefined ? undefined : true;
    },
    10_000,
  );
}

/** What the console and a developer read: search, deliveries (one redelivered), requests, terminals, clock, events. */
async function reads(client: SignedClient, clientTransactionId: string): Promise<void> {
  await ok('search online', client.post(searchPath('local', 'online'), { limit: 10 }));
  await ok('search local', client.post(searchPath('local', 'local'), { limit: 10 }));
  const deliveries = await ok<Json>(
    'deliveries',
    client.get(`/sandbox/deliveries?client_transaction_id=${clientTransactionId}`),
  );
  await ok('redeliver', client.post(`/sandbox/deliveries/${String(deliveries.items[0].id)}/redeliver`), 201);
  await ok('requests', client.get('/sandbox/requests'));
  await ok('terminals', client.get('/sandbox/terminals'));
  await ok('clock', client.get('/sandbox/clock'));
  await client.stream('/sandbox/events', (messages) => messages.length > 0, 5000);
}

export async function sandboxFlows(stack: Stack, receiver: WebhookReceiver): Promise<void> {
  const client = stack.client();
  // Always moved, so that a run sends the same statements at any hour: a void is refused from
  // 22:00 Mexico City (contract §9).
  await moveToMorning(client);
  await accounts(client);
  // Webhooks and print callbacks are then signed with it.
  await ok('webhook secret', client.post('/sandbox/webhook-secret'));
  await syncMoney(client);
  const charged = await asyncMoney(client, receiver);
  await abort(client);
  await print(client, receiver);
  await reads(client, charged);
}
