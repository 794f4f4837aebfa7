import { randomUUID } from 'node:crypto';
import { Stack, WebhookReceiver } from '@tps/testing';
import { describeOnStores } from './stores';

interface StoredEvent {
  event_id: string;
  status: string;
}

/** Both stores' view of one transaction: its events in order and its final status. */
async function storedViews(stack: Stack, clientTransactionId: string) {
  const api = await stack.store.rows<StoredEvent & { tx_status: string }>(
    'api',
    `SELECT e.event_id, e.status, t.status AS tx_status FROM transaction_events e
     JOIN transactions t ON t.id = e.transaction_id
     WHERE t.client_transaction_id = ? ORDER BY e.sequence`,
    [clientTransactionId],
  );
  const rows = await stack.store.rows<{
    event_id: string;
    envelope: string;
    tx_status: string;
    acked: unknown;
  }>(
    'terminal',
    `SELECT e.event_id, e.envelope, t.status AS tx_status, e.acked
     FROM terminal_events e JOIN terminal_transactions t ON t.key = e.transaction_key
     WHERE t.key = ? ORDER BY e.seq`,
    [`demo-merchant:${clientTransactionId}`],
  );
  // The envelope's status read here, not in SQL (each store has its own JSON functions); a
  // boolean is 1 in SQLite and true in PostgreSQL.
  const terminal = rows.map(({ event_id, envelope, tx_status, acked }) => ({
    event_id,
    status: (JSON.parse(envelope) as StoredEvent).status,
    tx_status,
    acked: acked === true || acked === 1,
  }));
  return { api, terminal };
}

describeOnStores('the simulator killed in the middle of a transaction', (store) => {
  let stack: Stack;
  let receiver: WebhookReceiver;

  beforeEach(async () => {
    stack = await Stack.start({ store });
    receiver = await WebhookReceiver.start();
  });

  afterEach(async () => {
    await receiver?.close();
    await stack?.stop();
  });

  async function charge(): Promise<string> {
    // Realistic pace: the card read takes 1.5 s, the acquirer 1 s, time enough to crash in between.
    await stack.client().patch('/sandbox/terminals/SIM0000002', { pace: 'realistic' });
    const clientTransactionId = randomUUID();
    const response = await stack.client().post('/terminal/v1/SIM0000002/async/charge', {
      amount: { iva: 1600, subtotal_iva: 10000, subtotal_iva0: 0 },
      client_transaction_id: clientTransactionId,
      events_webhook_url: receiver.url(),
    });
    expect(response.status).toBe(200);
    return clientTransactionId;
  }

  async function restartAndSettle(clientTransactionId: string, finalStatus: string): Promise<void> {
    await stack.startSimulator();
    await receiver.waitFor((all) => all.some((r) => (r.body as StoredEvent).status === finalStatus), 15_000);
    await stack.waitQueueDrained();
    await stack.simulator?.stop();
    await stack.api.stop();
    const { api, terminal } = await storedViews(stack, clientTransactionId);
    expect(api.map((e) => e.event_id)).toEqual(terminal.map((e) => e.event_id));
    expect(api.map((e) => e.status).at(-1)).toBe(finalStatus);
    expect(new Set(api.map((e) => e.tx_status))).toEqual(new Set([finalStatus]));
    expect(new Set(terminal.map((e) => e.tx_status))).toEqual(new Set([finalStatus]));
    expect(terminal.every((e) => e.acked)).toBe(true);
    const delivered = receiver.bodies<StoredEvent & { previous_status: string }>();
    delivered.forEach((event, i) => {
      if (i > 0) expect(event.previous_status).toBe(delivered[i - 1].status);
    });
  }

  it('before the card is read: the restarted terminal rejects it (TER-101) and both stores agree', async () => {
    const clientTransactionId = await charge();
    await stack.simulator?.kill();
    await restartAndSettle(clientTransactionId, 'TERMINAL_REJECTED');
    const rejected = receiver.bodies<Record<string, any>>().find((e) => e.status === 'TERMINAL_REJECTED');
    expect(rejected?.previous_status).toBe('TERMINAL_ACKNOWLEDGED');
    expect(rejected?.failure_reason).toMatchObject({ type: 'TERMINAL', code: 'TER-101' });
  });

  it('past the point of no return: the restarted terminal gets the acquirer answer and both stores agree', async () => {
    const clientTransactionId = await charge();
    await receiver.waitFor((all) => all.some((r) => (r.body as StoredEvent).status === 'APPROVAL_REQUESTED'));
    await stack.simulator?.kill();
    await restartAndSettle(clientTransactionId, 'APPROVAL');
    expect(receiver.bodies<StoredEvent>().map((e) => e.status)).toEqual([
      'CARD_PRESENTED',
      'APPROVAL_REQUESTED',
      'APPROVAL',
    ]);
  });
});
