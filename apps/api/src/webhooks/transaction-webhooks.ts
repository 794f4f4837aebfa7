import { Injectable } from '@nestjs/common';
import type { TransactionEvent } from '@tps/contracts';
import type { TransactionEntity } from '../transactions/transaction.entity';
import { DeliveryDispatcher } from './delivery-dispatcher';
import { DeliveryRepository } from './delivery.repository';

/**
 * Puts each later event of an async transaction in the outbox, then hands it to the dispatcher,
 * which sends it at once, retries it as contract §6 says, and keeps the transaction's order.
 */
@Injectable()
export class TransactionWebhooks {
  constructor(
    private readonly outbox: DeliveryRepository,
    private readonly dispatcher: DeliveryDispatcher,
  ) {}

  /** Resolves once the delivery is stored: only then may the terminal's event be acknowledged. */
  async enqueue(transaction: TransactionEntity, event: TransactionEvent): Promise<void> {
    const delivery = await this.outbox.createForEvent(
      transaction.id,
      transaction.eventsWebhookUrl,
      event,
      Date.now(),
    );
    if (delivery !== null) this.dispatcher.add(delivery);
  }
}
