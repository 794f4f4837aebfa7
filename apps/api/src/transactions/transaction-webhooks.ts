import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { TransactionEvent } from '@tps/contracts';
import type { PendingDelivery } from '@tps/delivery';
import { API_MESSAGES, type ApiMessages } from '../messages/api-messages';
import { ListenerPresence } from '../listen/listener-presence';
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
    private readonly presence: ListenerPresence,
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

  /**
   * Whether any event of this transaction calls for a delivery: an async one's, with a URL, or
   * without one while its merchant listens (contract §6.1: the listeners then answer it).
   */
  stagesFor(transaction: Pick<TransactionEntity, 'mode' | 'eventsWebhookUrl' | 'merchantId'>): boolean {
    if (transaction.mode !== 'async') return false;
    return transaction.eventsWebhookUrl !== '' || this.presence.isListening(transaction.merchantId);
  }

  /** Tells the dispatcher of a staged delivery; call only once its write is committed. */
  dispatch(delivery: PendingDelivery): void {
    this.messages.publish('delivery.staged', delivery);
  }
}
