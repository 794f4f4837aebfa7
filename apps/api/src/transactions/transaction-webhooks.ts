import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { TransactionEvent } from '@tps/contracts';
import type { PendingDelivery } from '@tps/delivery';
import { API_MESSAGES, type ApiMessages } from '../messages/api-messages';
import { DeliveryRepository } from '../webhooks/delivery.repository';
import type { TransactionEntity } from './transaction.entity';

/** The deliveries one write stages: each event's, then all inserted together. */
export interface Stager {
  /** The delivery an event calls for; null when none is due. */
  stage: (
    transaction: TransactionEntity,
    event: TransactionEvent,
    replayed: boolean,
  ) => Promise<PendingDelivery | null>;
  /** Inserts what was staged, in one statement; before the write ends. */
  insert: () => Promise<void>;
}

/**
 * Puts each later event of an async transaction in the outbox, in the write that stores the
 * event, then tells the dispatcher once stored, which sends it at once, retries it as
 * contract §6 says, and keeps the transaction's order.
 */
@Injectable()
export class TransactionWebhooks {
  constructor(
    private readonly outbox: DeliveryRepository,
    @Inject(API_MESSAGES) private readonly messages: ApiMessages,
  ) {}

  /**
   * The deliveries of one run of events, staged in `manager`'s write: each event's delivery, or
   * null when none is due.
   */
  stagerFor(manager: EntityManager): Stager {
    const staging = this.outbox.stagingIn(manager);
    return {
      stage: async (transaction, event, replayed) => {
        // The acknowledgement is the HTTP answer; only later state changes are webhooks.
        if (!this.stagesFor(transaction) || event.status === 'TERMINAL_ACKNOWLEDGED') return null;
        return staging.stage(transaction, transaction.eventsWebhookUrl, event, Date.now(), replayed);
      },
      insert: () => staging.insert(),
    };
  }

  /** Whether any event of this transaction calls for a delivery: an async one's, with a URL. */
  stagesFor(transaction: Pick<TransactionEntity, 'mode' | 'eventsWebhookUrl'>): boolean {
    return transaction.mode === 'async' && transaction.eventsWebhookUrl !== '';
  }

  /** Tells the dispatcher of a staged delivery; call only once its write is committed. */
  dispatch(delivery: PendingDelivery): void {
    this.messages.publish('delivery.staged', delivery);
  }
}
