import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import {
  API_ENTRY,
  AppProcess,
  LINK_SECRET,
  STORES,
  SignedClient,
  Stack,
  WebhookReceiver,
  neverAnswer,
  poll,
  type ReceivedRequest,
} from '@tps/testing';
import { amountOf, type Json } from './payment-helpers';

/** Short enough for a suite, long enough to tell a lease that ends from one given back. */
const LEASE_MS = 9_000;
/** WEBHOOK_MAX_IN_FLIGHT_PER_DESTINATION as shipped. */
const SHARE = 8;
/**
 * The shared destination's path, this run's own: a test of another file whose sender still
 * retries to a port the receiver took after it has its requests left out of the counts.
 */
const SHARED = `/shared/${randomUUID()}`;
const LATER_STATUSES = ['CARD_PRESENTED', 'APPROVAL_REQUESTED', 'APPROVAL'];

const settle = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** An async charge the terminal approves; a terminal busy with the last one (TER-003) is asked again. */
async function charge(client: SignedClient, serial: string, webhookUrl: string): Promise<string> {
  const clientTransactionId = randomUUID();
  const body = {
    amount: amountOf(10000),
    client_transaction_id: clientTransactionId,
    events_webhook_url: webhookUrl,
  };
  for (;;) {
    const answer = await client.post<Json>(`/terminal/v1/${serial}/async/charge`, body);
    if (answer.status === 200) return clientTransactionId;
    if (answer.status !== 409 || answer.body.code !== 'TER-003')
      throw new Error(`charge on ${serial}: ${answer.status} ${JSON.stringify(answer.body)}`);
    await settle(5);
  }
}

const bodyOf = (request: ReceivedRequest): Json => request.body as Json;

/** What a transaction's receiver got, in order: status and webhook-id of each request. */
function receivedFor(receiver: WebhookReceiver, clientTransactionId: string): Array<[string, string]> {
  return receiver.received
    .filter((request) => bodyOf(request).client_transaction_id === clientTransactionId)
    .map((request) => [bodyOf(request).status as string, request.headers['webhook-id'] as string]);
}

/**
 * Scale-out (steering decisions §16): two API processes on one PostgreSQL database. The outbox is
 * leased: each attempt is made by one replica, a killed replica's deliveries are taken over once
 * their leases end, and a replica stopped gracefully gives them back at once.
 */
(STORES.includes('postgres') ? describe : describe.skip)(
  'webhook deliveries leased across two replicas [postgres]',
  () => {
    let stack: Stack;
    let second: AppProcess;
    let receiver: WebhookReceiver;

    const replicaEnv = (replica: string): Record<string, string> => ({
      REPLICA_ID: replica,
      DELIVERY_LEASE_MS: String(LEASE_MS),
      WEBHOOK_TIMEOUT_MS: '60000',
    });

    async function startSecond(): Promise<void> {
      second = await AppProcess.start('api-b', API_ENTRY, {
        PORT: '0',
        HOST: '127.0.0.1',
        DATABASE_URL: await stack.store.url('api'),
        LINK_SECRET,
        // The first replica's secrets key: every replica of one database shares it.
        SECRETS_KEY_FILE: join(stack.dir, 'api-secrets.key'),
        ...replicaEnv('replica-b'),
      });
    }

    /** Starts replica A again (it was killed or stopped) and links the simulator to it. */
    async function restartFirst(): Promise<void> {
      await stack.simulator?.stop();
      await stack.startApi();
      await stack.startSimulator();
      await stack.waitLinked(3);
    }

    /** The deliveries of a transaction as stored: status, attempts and the replica holding each. */
    async function deliveriesOf(
      clientTransactionId: string,
    ): Promise<Array<[string, string, number, string]>> {
      const rows = await stack.store.rows<{
        event_status: string;
        state: string;
        attempt_count: number | string;
        lease_owner: string | null;
      }>(
        'api',
        'SELECT event_status, state, attempt_count, lease_owner FROM webhook_deliveries WHERE client_transaction_id = ? ORDER BY position',
        [clientTransactionId],
      );
      return rows.map((row) => [
        row.event_status,
        row.state,
        Number(row.attempt_count),
        (row.lease_owner ?? '').split('/')[0],
      ]);
    }

    /** When the lease `replica` holds on a transaction's deliveries ends (epoch ms). */
    async function leaseEndOf(clientTransactionId: string, replica: string): Promise<number> {
      const rows = await stack.store.rows<{ lease_owner: string | null; lease_until: string | null }>(
        'api',
        'SELECT lease_owner, lease_until FROM webhook_deliveries WHERE client_transaction_id = ? AND lease_until IS NOT NULL',
        [clientTransactionId],
      );
      const held = rows.filter((row) => (row.lease_owner ?? '').split('/')[0] === replica);
      expect(held.length).toBeGreaterThan(0);
      return Math.min(...held.map((row) => Date.parse(row.lease_until ?? '')));
    }

    /** Waits for a transaction's deliveries to be recorded as expected: a record follows its answer. */
    async function expectRecorded(clientTransactionId: string, replica: string): Promise<void> {
      const expected = LATER_STATUSES.map((status) => [status, 'delivered', 1, replica]);
      const recorded = await poll(
        `the deliveries of ${clientTransactionId} recorded`,
        async () => {
          const rows = await deliveriesOf(clientTransactionId);
          return rows.every(([, state]) => state !== 'pending') ? rows : undefined;
        },
        5_000,
      );
      expect(recorded).toEqual(expected);
    }

    beforeAll(async () => {
      stack = await Stack.start({ store: 'postgres', apiEnv: replicaEnv('replica-a') });
      await startSecond();
      receiver = await WebhookReceiver.start();
      // Signed deliveries: each carries its webhook-id (the event_id), which a takeover keeps.
      expect((await stack.client().post('/sandbox/webhook-secret')).status).toBe(200);
    });

    afterAll(async () => {
      await second?.stop();
      await stack?.stop();
      await receiver?.close();
    });

    it('delivers each event once, in order, from the replica that stored it, while both look for work', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 20; i += 1)
        ids.push(
          await charge(stack.client(), i % 2 === 0 ? 'SIM0000001' : 'SIM0000002', receiver.url('/once')),
        );
      await receiver.waitFor(
        () => ids.every((id) => receivedFor(receiver, id).some(([status]) => status === 'APPROVAL')),
        20_000,
      );
      // Past a lease and a few claims: nothing goes out again.
      await settle(LEASE_MS + 2_000);
      for (const id of ids) {
        expect(receivedFor(receiver, id).map(([status]) => status)).toEqual(LATER_STATUSES);
        await expectRecorded(id, 'replica-a');
      }
    });

    it("holds a destination's share across both replicas: what one has in flight, the other cannot add to", async () => {
      // Ten transactions delivered: their deliveries are sent again from replica B below.
      const done: string[] = [];
      for (let i = 0; i < 10; i += 1)
        done.push(await charge(stack.client(), 'SIM0000001', receiver.url(SHARED)));
      await receiver.waitFor(
        () => done.every((id) => receivedFor(receiver, id).some(([status]) => status === 'APPROVAL')),
        20_000,
      );
      for (const id of done) await expectRecorded(id, 'replica-a');

      // The receiver now holds every request: replica A fills the destination's share of 8.
      const held: Array<() => void> = [];
      receiver.respondWith((_request, _n, response) => held.push(() => response.end()));
      const hanging: string[] = [];
      for (let i = 0; i < 10; i += 1)
        hanging.push(await charge(stack.client(), 'SIM0000002', receiver.url(SHARED)));
      await receiver.waitFor(() => receiver.openAt(SHARED) === SHARE);

      // Replica B is asked to send ten events again, to the same destination: it has no slot.
      const b = new SignedClient(second.url);
      const redelivered: string[] = [];
      for (const id of done) {
        const listed = await b.get<{ items: Array<{ id: string }> }>(
          `/sandbox/deliveries?client_transaction_id=${id}`,
        );
        const again = await b.post<{ id: string }>(
          `/sandbox/deliveries/${listed.body.items[0].id}/redeliver`,
        );
        expect(again.status).toBe(201);
        redelivered.push(again.body.id);
      }
      await settle(2_000);
      expect(receiver.mostOpenAt(SHARED)).toBe(SHARE);

      // Answered, everything goes: never more than the share in flight at once, from both.
      receiver.respondWith((_request, _n, response) => response.end());
      for (const answer of held.splice(0)) answer();
      await poll(
        'the redeliveries made by replica B',
        async () => {
          const rows = await stack.store.rows<{ state: string; lease_owner: string }>(
            'api',
            `SELECT state, lease_owner FROM webhook_deliveries WHERE id IN (${redelivered.map(() => '?').join(', ')})`,
            redelivered,
          );
          return rows.every((row) => row.state === 'delivered') ? rows : undefined;
        },
        20_000,
      );
      await receiver.waitFor(
        () => hanging.every((id) => receivedFor(receiver, id).some(([status]) => status === 'APPROVAL')),
        20_000,
      );
      expect(receiver.mostOpenAt(SHARED)).toBe(SHARE);
    });

    it("takes a killed replica's deliveries over once their leases end, with the same webhook-id, in order", async () => {
      receiver.respondWith(neverAnswer);
      const ids = [
        await charge(stack.client(), 'SIM0000001', receiver.url('/killed')),
        await charge(stack.client(), 'SIM0000002', receiver.url('/killed')),
      ];
      await receiver.waitFor(() => ids.every((id) => receivedFor(receiver, id).length === 1));
      const held = ids.map((id) => receivedFor(receiver, id)[0]);
      expect(held.map(([status]) => status)).toEqual(['CARD_PRESENTED', 'CARD_PRESENTED']);

      await stack.api.kill();
      const killedAt = Date.now();
      receiver.respondWith((_request, _n, response) => response.end());
      await receiver.waitFor(
        () => ids.every((id) => receivedFor(receiver, id).some(([status]) => status === 'APPROVAL')),
        LEASE_MS + 10_000,
      );
      // Renewed every third of a lease, so held at least two thirds of one after the kill.
      const firstTakeover = Math.min(
        ...receiver.received
          .filter((request) => request.path === '/killed')
          .slice(2)
          .map((request) => request.at),
      );
      expect(firstTakeover - killedAt).toBeGreaterThanOrEqual((LEASE_MS * 2) / 3 - 500);
      for (const [n, id] of ids.entries()) {
        const got = receivedFor(receiver, id);
        // The attempt cut by the kill again, with its webhook-id, then the rest in lifecycle order.
        expect(got.map(([status]) => status)).toEqual(['CARD_PRESENTED', ...LATER_STATUSES]);
        expect(got[1][1]).toBe(held[n][1]);
        await expectRecorded(id, 'replica-b');
      }
      await restartFirst();
    });

    it("makes a killed replica's print callback from the other replica once its lease ends", async () => {
      receiver.respondWith(neverAnswer);
      const created = await stack.client().post<{ printJobId: string }>('/terminal/v1/SIM0000002/print', {
        commands: [{ type: 'text', value: 'taken over' }],
        webhookUrl: receiver.url('/printed'),
      });
      expect(created.status).toBe(202);
      const { printJobId } = created.body;
      const callbacks = (): ReceivedRequest[] =>
        receiver.received.filter((request) => request.path === '/printed');
      await receiver.waitFor(() => callbacks().length === 1);
      await stack.api.kill();
      receiver.respondWith((_request, _n, response) => response.end());
      await receiver.waitFor(() => callbacks().length === 2, LEASE_MS + 10_000);
      expect(
        callbacks().map((request) => [bodyOf(request).printJobId, request.headers['webhook-id']]),
      ).toEqual([
        [printJobId, printJobId],
        [printJobId, printJobId],
      ]);
      const recorded = await poll(
        'the callback recorded by replica B',
        async () => {
          const [row] = await stack.store.rows<{ callback: string | null; callback_owner: string }>(
            'api',
            'SELECT callback, callback_owner FROM print_jobs WHERE print_job_id = ?',
            [printJobId],
          );
          return row?.callback === null ? undefined : row;
        },
        5_000,
      );
      expect(recorded.callback_owner.split('/')[0]).toBe('replica-b');
      expect(JSON.parse(recorded.callback ?? '{}')).toMatchObject({ statusCode: 200 });
      await restartFirst();
    });

    it('a replica stopped gracefully gives its leases back: the other takes them at once', async () => {
      receiver.respondWith(neverAnswer);
      const id = await charge(stack.client(), 'SIM0000001', receiver.url('/stopped'));
      await receiver.waitFor(() => receivedFor(receiver, id).length === 1);
      const [, webhookId] = receivedFor(receiver, id)[0];

      receiver.respondWith((_request, _n, response) => response.end());
      await stack.simulator?.stop();
      // The end of the lease A holds as it stops: renewing only moves it later.
      const leaseEnds = await leaseEndOf(id, 'replica-a');
      try {
        await stack.api.stop();
        await receiver.waitFor(
          () => receivedFor(receiver, id).some(([status]) => status === 'APPROVAL'),
          LEASE_MS,
        );
        const got = receivedFor(receiver, id);
        expect(got.map(([status]) => status)).toEqual(['CARD_PRESENTED', ...LATER_STATUSES]);
        expect(got[1][1]).toBe(webhookId);
        // Given back, not ended: B sent it before A's lease could have run out.
        const takenAt = receiver.received.filter((request) => request.path === '/stopped')[1].at;
        expect(takenAt).toBeLessThan(leaseEnds);
        await expectRecorded(id, 'replica-b');
      } finally {
        await restartFirst();
      }
    });

    it('a replica started again under its REPLICA_ID takes back what its killed predecessor held, at once', async () => {
      receiver.respondWith(neverAnswer);
      // B may not take these: A (same REPLICA_ID) starts again before the leases end.
      await second.stop();
      const id = await charge(stack.client(), 'SIM0000002', receiver.url('/restarted'));
      await receiver.waitFor(() => receivedFor(receiver, id).length === 1);
      try {
        const leaseEnds = await leaseEndOf(id, 'replica-a');
        await stack.api.kill();
        receiver.respondWith((_request, _n, response) => response.end());
        await restartFirst();
        await receiver.waitFor(
          () => receivedFor(receiver, id).some(([status]) => status === 'APPROVAL'),
          LEASE_MS,
        );
        // Taken back by the new process at once, not once the killed one's lease ran out.
        const takenAt = receiver.received.filter((request) => request.path === '/restarted')[1].at;
        expect(takenAt).toBeLessThan(leaseEnds);
        expect(receivedFor(receiver, id).map(([status]) => status)).toEqual([
          'CARD_PRESENTED',
          ...LATER_STATUSES,
        ]);
        await expectRecorded(id, 'replica-a');
      } finally {
        await startSecond();
      }
    });
  },
);
