import { Injectable, Logger } from '@nestjs/common';
import type { LinkEvent } from '@tps/link';
import { TransactionWebhooks } from '../webhooks/transaction-webhooks';
import { TransactionRepository } from './transaction.repository';

/** Takes in the events a terminal sends up its link: stored once, in order, then notified. */
@Injectable()
export class EventIngest {
  private readonly logger = new Logger('EventIngest');

  constructor(
    private readonly transactions: TransactionRepository,
    private readonly webhooks: TransactionWebhooks,
  ) {}

  async ingest(serial: string, link: LinkEvent): Promise<void> {
    const { event } = link;
    const transaction = await this.transactions.findByClientId(
      event.merchant_id,
      event.client_transaction_id,
    );
    if (transaction === null || transaction.terminalSerial !== serial) {
      this.logger.warn(
        `event ${event.event_id} from ${serial} names no transaction of that terminal; dropped`,
      );
      return;
    }
    await this.transactions.appendEvent(transaction.id, link);
    // The acknowledgement is the HTTP answer; only later state changes are webhooks. A replayed
    // event is enqueued too (the outbox makes its delivery once): the service may have crashed
    // after storing it and before its delivery was saved, and the terminal then sends it again.
    if (
      transaction.mode === 'async' &&
      transaction.eventsWebhookUrl !== '' &&
      event.status !== 'TERMINAL_ACKNOWLEDGED'
    ) {
      await this.webhooks.enqueue(transaction, event);
    }
  }
}
