import type { ReceivedRequest, TestStore } from '@tps/testing';

/**
 * Each received webhook's wait from its outbox row (written with the event, millisecond
 * timestamp) to its arrival at the receiver, in ms. transaction_events.received_at is only
 * second-precise, so it cannot time a wait of a few milliseconds.
 */
export async function storedToReceivedMs(store: TestStore, received: ReceivedRequest[]): Promise<number[]> {
  const rows = await store.rows<{ event_id: string; created_at: string }>(
    'api',
    'SELECT event_id, created_at FROM webhook_deliveries',
  );
  const stored = new Map(rows.map((row) => [row.event_id, Date.parse(row.created_at)]));
  return received
    .map((r) => r.at - (stored.get((r.body as { event_id: string }).event_id) ?? NaN))
    .filter((ms) => Number.isFinite(ms));
}
