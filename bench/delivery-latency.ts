import { Stack, WebhookReceiver } from '@tps/testing';
import { chargeBody } from './lib/charge-body';
import { storedToReceivedMs } from './lib/outbox-latency';
import { runPaced } from './lib/paced-charges';
import { percentile } from './lib/stats';

export interface DeliveryLatency {
  /** Async charges answered 200 in the paced run. */
  charges: number;
  /** Each APPROVAL's wait from its outbox row to the receiver, p50 and p99, ms. */
  approvalP50Ms: number;
  approvalP99Ms: number;
}

/**
 * Async charges at a fixed rate (an open loop) on `serials`, their webhooks to a receiver that
 * answers 200 at once: how long each APPROVAL waits between being stored and being received.
 */
export async function measureDeliveryLatency(
  stack: Stack,
  serials: string[],
  ratePerSecond: number,
  seconds: number,
): Promise<DeliveryLatency> {
  const receiver = await WebhookReceiver.start();
  try {
    const client = stack.client();
    const url = receiver.url('/paced');
    const { charges } = await runPaced({
      ratePerSecond,
      seconds,
      serials,
      send: async (serial) =>
        (await client.send('POST', `/terminal/v1/${serial}/async/charge`, chargeBody(url))).status,
    });
    const answered = charges.filter((charge) => charge.status === 200).length;
    const approvals = (): typeof receiver.received =>
      receiver.received.filter((r) => (r.body as { status?: string }).status === 'APPROVAL');
    await receiver.waitFor(() => approvals().length >= answered, 60_000);
    const waits = await storedToReceivedMs(stack.store, approvals());
    return { charges: answered, approvalP50Ms: percentile(waits, 50), approvalP99Ms: percentile(waits, 99) };
  } finally {
    await receiver.close();
  }
}
