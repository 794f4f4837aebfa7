import { Inject, Injectable, Logger } from '@nestjs/common';
import { ContractError } from '@tps/domain';
import type { PendingDelivery } from '@tps/delivery';
import type { LinkEvent } from '@tps/link';
import { API_MESSAGES, type ApiMessages } from '../messages/api-messages';
import { TransactionWebhooks } from './transaction-webhooks';
import { TransactionRepository, type TerminalIdentity } from './transaction.repository';

/** Takes in the events a terminal sends up its link: stored once, in order, then notified. */
@Injectable()
export class EventIngest {
  private readonly logger = new Logger('EventIngest');

  constructor(
    private readonly transactions: TransactionRepository,
    private readonly webhooks: TransactionWebhooks,
    @Inject(API_MESSAGES) private readonly messages: ApiMessages,
  ) {}

  /**
   * Stores a run of one transaction's events that a terminal answered with; resolves once all are
   * committed (those stored already are duplicates). Events that do not follow what is stored
   * leave the outcome unknown (504 TER-002): the record stays, and the uplink completes it.
   */
  async ingestAll(terminal: TerminalIdentity, links: LinkEvent[]): Promise<void> {
    const refusal = await this.store(terminal, links);
    if (refusal === undefined) return;
    this.logger.warn(`reply of ${terminal.serialNumber}: ${refusal.error.message}`);
    throw new ContractError(
      'TER-002',
      "the terminal's answer does not follow what the service stored; the outcome is not known yet",
    );
  }

  /**
   * Stores a terminal's run of events, in order, and answers how many from its start are stored.
   * Throws only when not even the first could be: the terminal then sends it again later.
   */
  async ingestRun(terminal: TerminalIdentity, links: LinkEvent[]): Promise<number> {
    const refusal = await this.store(terminal, links);
    if (refusal === undefined) return links.length;
    if (refusal.stored === 0) throw refusal.error;
    this.logger.warn(`uplink ${terminal.serialNumber}: ${refusal.error.message}`);
    return refusal.stored;
  }

  private async store(
    terminal: TerminalIdentity,
    links: LinkEvent[],
  ): Promise<{ stored: number; error: Error } | undefined> {
    // A replayed event is staged again (made once by the outbox): a database written before
    // events and deliveries shared one write may hold the event without its delivery.
    const run = await this.transactions.appendEvents(
      terminal,
      links,
      (manager) => {
        const stager = this.webhooks.stagerFor(manager);
        return {
          each: (transaction, event, result) => stager.stage(transaction, event, result === 'duplicate'),
          end: () => stager.insert(),
        };
      },
      (transaction) => !this.webhooks.stagesFor(transaction),
    );
    const deliveries: PendingDelivery[] = [];
    for (const appended of run.appended) {
      if (appended.result === 'unknown') {
        this.logger.warn(
          `event ${appended.link.event.event_id} from ${terminal.serialNumber} names another terminal's transaction; dropped`,
        );
      } else {
        if (appended.alongside !== null)
          deliveries.push({ ...appended.alongside, traceparent: appended.link.traceparent });
        if (appended.result === 'appended')
          this.messages.publish('transaction.event', {
            serial: terminal.serialNumber,
            event: appended.link.event,
            traceparent: appended.link.traceparent,
          });
      }
    }
    // Sent once the answer this write allows has left: an async reply's run may hold the whole
    // lifecycle, and its webhooks should not overtake the answer.
    if (deliveries.length > 0) {
      setImmediate(() => {
        for (const delivery of deliveries) this.webhooks.dispatch(delivery);
      });
    }
    return run.refusal === undefined ? undefined : { stored: run.appended.length, error: run.refusal };
  }
}
