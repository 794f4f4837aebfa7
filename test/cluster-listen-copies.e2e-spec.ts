import { randomUUID } from 'node:crypto';
import { poll, Stack, WebhookReceiver, type SignedClient } from '@tps/testing';
import { SocketListener } from './listen-socket';
import type { Json } from './payment-helpers';

interface Attempt {
  status_code: number | null;
  listeners?: Array<{ status_code: number | null }>;
}

/**
 * Several replicas on one PostgreSQL database (contract §6.1 and Part II, "`listen` across
 * processes"): a merchant's `listen` connections on different replicas each get one copy of
 * every attempt, whichever replica makes it, and the URL still gets the attempt.
 */
describe('listen copies across replicas [postgres]', () => {
  let stack: Stack;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    stack = await Stack.start({ store: 'postgres', replicas: 2, instant: [] });
    receiver = await WebhookReceiver.start();
  }, 60_000);

  afterAll(async () => {
    await receiver?.close();
    await stack?.stop();
  });

  /** The attempts of the charge's three deliveries once delivered, each with both listeners' answers beside it. */
  async function deliveredAttempts(account: SignedClient, id: string): Promise<Attempt[]> {
    return poll(
      `the deliveries of ${id} to be delivered`,
      async () => {
        const listed = await account.get<{ items: Array<{ state: string; attempts: Attempt[] }> }>(
          `/sandbox/deliveries?client_transaction_id=${id}`,
        );
        const items = listed.body.items ?? [];
        // A listener's answer may come after the URL's, and is recorded beside it then (contract §6.1).
        const done = items.every((d) => d.state === 'delivered' && d.attempts[0]?.listeners?.length === 2);
        return items.length === 3 && done ? items.flatMap((d) => d.attempts) : undefined;
      },
      30_000,
    );
  }

  it('gives one copy to a connection on each replica; with a URL it answers the attempt, without one the listeners do', async () => {
    const created = await stack
      .clientOf(0)
      .post<Json>('/sandbox/accounts', { terminals: 1, pace: 'instant' });
    expect(created.status).toBe(201);
    const owner = {
      merchantId: String(created.body.merchant_id),
      secretKey: String(created.body.secret_key),
    };
    const serial = String((created.body.terminals as Array<{ serialNumber: string }>)[0].serialNumber);
    const account = stack.clientOf(1).as({ merchantId: owner.merchantId, secret: owner.secretKey });
    const onFirst = await SocketListener.open(stack.replicas[0].url, owner, 202);
    const onSecond = await SocketListener.open(stack.replicas[1].url, owner, 204);
    try {
      // Each replica hears of the other's connection over the message port.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const charge = async (url?: string): Promise<string> => {
        const id = randomUUID();
        const answer = await account.post<Json>(`/terminal/v1/${serial}/async/charge`, {
          amount: { iva: 1600, subtotal_iva: 10_000, subtotal_iva0: 0 },
          client_transaction_id: id,
          ...(url === undefined ? {} : { events_webhook_url: url }),
        });
        expect(answer.status).toBe(200);
        return id;
      };

      const withUrl = await charge(receiver.url('/hook'));
      const attempts = await deliveredAttempts(account, withUrl);
      expect(attempts).toHaveLength(3);
      for (const attempt of attempts) {
        expect(attempt.status_code).toBe(200);
        expect(attempt.listeners?.map((l) => l.status_code).sort()).toEqual([202, 204]);
      }
      expect(receiver.bodies().filter((b) => b.client_transaction_id === withUrl)).toHaveLength(3);

      const withoutUrl = await charge();
      for (const attempt of await deliveredAttempts(account, withoutUrl)) {
        // Both answered 2xx: the first of them is the attempt's.
        expect([202, 204]).toContain(attempt.status_code);
        expect(attempt.listeners).toHaveLength(2);
      }
      expect(onFirst.copies).toHaveLength(6);
      expect(onSecond.copies).toHaveLength(6);
    } finally {
      await Promise.all([onFirst.close(), onSecond.close()]);
    }
  }, 90_000);
});
