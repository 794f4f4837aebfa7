import { Injectable, Logger } from '@nestjs/common';
import type { TransactionEvent } from '@tps/contracts';
import { ApiConfig } from '../config/api-config';
import type { TransactionEntity } from '../transactions/transaction.entity';

/**
 * Sends each later event of an async transaction to its events_webhook_url, one at a time per
 * transaction so that its events arrive in order.
 */
@Injectable()
export class TransactionWebhooks {
  private readonly logger = new Logger('TransactionWebhooks');
  private readonly chains = new Map<string, Promise<void>>();

  constructor(private readonly config: ApiConfig) {}

  enqueue(transaction: TransactionEntity, event: TransactionEvent): Promise<void> {
    const previous = this.chains.get(transaction.id) ?? Promise.resolve();
    const next = previous.then(() => this.post(transaction.eventsWebhookUrl, event));
    this.chains.set(transaction.id, next);
    void next.then(() => {
      if (this.chains.get(transaction.id) === next) this.chains.delete(transaction.id);
    });
    return Promise.resolve();
  }

  private async post(url: string, event: TransactionEvent): Promise<void> {
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(event),
        redirect: 'manual',
        signal: AbortSignal.timeout(this.config.WEBHOOK_TIMEOUT_MS),
      });
      this.logger.log(`${event.status} of ${event.client_transaction_id} → ${response.status}`);
    } catch (error) {
      this.logger.warn(`${event.status} of ${event.client_transaction_id} not delivered: ${String(error)}`);
    }
  }
}
