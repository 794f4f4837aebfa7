import { randomUUID } from 'node:crypto';

/** A charge or authorization body whose total ends in `ending` (the scenario of contract §10). */
export function scenarioBody(
  ending: string,
  webhook?: string,
): Record<string, unknown> & { client_transaction_id: string } {
  return {
    amount: { iva: 1600, subtotal_iva: 10000 + Number(ending), subtotal_iva0: 0 },
    client_transaction_id: randomUUID(),
    ...(webhook === undefined ? {} : { events_webhook_url: webhook }),
  };
}

export const FINAL_STATUSES = ['APPROVAL', 'DECLINED', 'TERMINAL_REJECTED', 'TERMINAL_CANCELED'];
