import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { TransactionEvent } from '@tps/contracts';
import type { PendingDelivery } from '@tps/delivery';
import { DeliveryDispatcher } from '../webhooks/delivery-dispatcher';
import { DeliveryRepository } from '../webhooks/delivery.repository';
import type { TransactionEntity } from './transaction.entity';

/**
 * Puts each later event of an async transaction in the outbox, in the write that stores the
 * event, then hands it to the dispatcher once stored, which sends it at once, retries it as
 * contract §6 says, and keeps the transaction's order.
 */
@Injectable()
export class TransactionWebhooks {
  constructor(
    private readonly outbox: DeliveryRepository,
    private readonly dispatcher: DeliveryDispatcher,
  ) {}

  /** The delivery this event calls for, staged in `manager`'s write; null when none is due. */
  stage(
    manager: EntityManager,
    transaction: TransactionEntity,
    event: TransactionEvent,
    replayed: boolean,
  ): Promise<PendingDelivery | null> {
    // The acknowledgement is the HTTP answer; only later state changes are webhooks.
    if (
      transaction.mode !== 'async' ||
      transaction.eventsWebhookUrl === '' ||
      event.status === 'TERMINAL_ACKNOWLEDGED'
    ) {
      return Promise.resolve(null);
    }
    return this.outbox.stageForEvent(
      manager,
      transaction,
      transaction.eventsWebhookUrl,
      event,
      Date.now(),
      replayed,
    );
  }

  /** Sends a staged delivery; call only once its write is committed. */
  dispatch(delivery: PendingDelivery | null): void {
    if (delivery !== null) this.dispatcher.add(delivery);
  }
}
