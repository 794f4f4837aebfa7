import { randomUUID } from 'node:crypto';

/** A charge that the simulator approves (a total ending in 00 selects no special scenario). */
export function chargeBody(webhookUrl?: string, clientTransactionId: string = randomUUID()): string {
  return JSON.stringify({
    amount: { iva: 1600, subtotal_iva: 10000, subtotal_iva0: 0 },
    client_transaction_id: clientTransactionId,
    ...(webhookUrl === undefined ? {} : { events_webhook_url: webhookUrl }),
  });
}
