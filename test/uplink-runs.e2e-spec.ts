import { randomUUID } from 'node:crypto';
import { WebSocket } from 'ws';
import { ContractError } from '@tps/domain';
import {
  EVENTS_RECEIPT,
  LinkPeer,
  TERMINAL_UPLINK_SIDE,
  UPLINK_PATH,
  type EventsReceipt,
  type LinkEvent,
} from '@tps/link';
import { ShareHolder, Stack, WebhookReceiver, sqliteRows } from '@tps/testing';
import { approvedAsyncChargeEvents } from './payment-helpers';

type Envelope = LinkEvent['event'];

/**
 * A terminal sends its queued events up as runs (one request, one write). What the service
 * answers for a run decides what the terminal may forget, so it must never claim an event it
 * did not store, nor store anything after one it refused.
 */
describe('event runs on the uplink', () => {
  let stack: Stack;
  let receiver: WebhookReceiver;
  let peer: LinkPeer;
  let holder: ShareHolder | undefined;
  let events: Envelope[];

  const counts = async (): Promise<{ events: number; deliveries: number }> => {
    const [row] = await sqliteRows<{ events: number; deliveries: number }>(
      stack.apiDatabase,
      `SELECT (SELECT COUNT(*) FROM transaction_events) AS events,
              (SELECT COUNT(*) FROM webhook_deliveries) AS deliveries`,
    );
    return row;
  };

  beforeAll(async () => {
    stack = await Stack.start();
    receiver = await WebhookReceiver.start();
    events = await approvedAsyncChargeEvents(stack, receiver);
    expect(events.map((e) => e.status)).toEqual([
      'TERMINAL_ACKNOWLEDGED',
      'CARD_PRESENTED',
      'APPROVAL_REQUESTED',
      'APPROVAL',
    ]);
    // The real terminal goes away; this test holds the fleet share and speaks for SIM0000001 instead.
    await stack.simulator?.stop();
    holder = await ShareHolder.link(stack.api.port);
    const socket = new WebSocket(`ws://127.0.0.1:${stack.api.port}${UPLINK_PATH}`, {
      headers: holder.uplinkHeaders('SIM0000001'),
    });
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    peer = new LinkPeer(socket, { side: TERMINAL_UPLINK_SIDE, onRequest: () => Promise.resolve(undefined) });
  });

  afterAll(async () => {
    holder?.close();
    await receiver?.close();
    await stack?.stop();
  });

  const run = (links: Envelope[]): Promise<EventsReceipt> =>
    peer.request({ type: 'events', links: links.map((event) => ({ event })) }, 5_000, EVENTS_RECEIPT);

  it('counts replays and events of unknown transactions as taken, and stops at the first refused one', async () => {
    const before = await counts();
    const unknown: Envelope = { ...events[1], event_id: randomUUID(), client_transaction_id: randomUUID() };
    // Moves an approved transaction back: it does not follow its state.
    const outOfOrder: Envelope = { ...events[2], event_id: randomUUID() };
    const wouldFollow: Envelope = { ...events[3], event_id: randomUUID() };
    const receipt = await run([events[0], unknown, events[1], outOfOrder, wouldFollow]);
    expect(receipt).toEqual({ stored: 3 });
    // Replays store nothing again and make no second delivery; nothing after the refusal is kept.
    expect(await counts()).toEqual(before);
    const forged = await sqliteRows(
      stack.apiDatabase,
      'SELECT event_id FROM transaction_events WHERE event_id IN (?, ?, ?)',
      [unknown.event_id, outOfOrder.event_id, wouldFollow.event_id],
    );
    expect(forged).toEqual([]);
  });

  it('answers an error when not even the first event of a run can be stored', async () => {
    const before = await counts();
    const outOfOrder: Envelope = { ...events[1], event_id: randomUUID() };
    await expect(run([outOfOrder, events[0]])).rejects.toBeInstanceOf(ContractError);
    expect(await counts()).toEqual(before);
  });
});
