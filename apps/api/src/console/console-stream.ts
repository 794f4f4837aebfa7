import { Inject, Injectable } from '@nestjs/common';
import { Observable, filter, from, map, mergeMap, share } from 'rxjs';
import type { PrintCommand, PrintJobRecord, TransactionEvent } from '@tps/contracts';
import { API_MESSAGES, type ApiMessages, type ApiTopics } from '../messages/api-messages';
import { printJobRecord } from '../print/print-service';
import { PrintJobRepository } from '../print-jobs/print-job.repository';
import { TerminalRepository } from '../terminals/terminal.repository';
import { DeliveryRepository } from '../webhooks/delivery.repository';

/** What the console's live stream sends; the console reads anything more through the signed routes. */
export type ConsoleMessage =
  | { type: 'event'; serial: string; event: TransactionEvent }
  | { type: 'delivery'; delivery_id: string; event_id: string; client_transaction_id: string }
  | { type: 'print'; job: PrintJobRecord & { commands: PrintCommand[] } };

/** The notices the console shows, as the message port carries them. */
type LiveNotice =
  | ({ kind: 'event' } & ApiTopics['transaction.event'])
  | ({ kind: 'attempt' } & ApiTopics['delivery.attempt'])
  | ({ kind: 'print' } & ApiTopics['print.report']);

/**
 * The three topics as one stream, subscribed while someone watches: from every replica, since the
 * console may be connected to any (contract, scale-out).
 */
function liveNotices(messages: ApiMessages): Observable<LiveNotice> {
  return new Observable<LiveNotice>((subscriber) => {
    const stops = [
      messages.subscribe(
        'transaction.event',
        (message) => subscriber.next({ kind: 'event', ...message }),
        'cluster',
      ),
      messages.subscribe(
        'delivery.attempt',
        (message) => subscriber.next({ kind: 'attempt', ...message }),
        'cluster',
      ),
      messages.subscribe(
        'print.report',
        (message) => subscriber.next({ kind: 'print', ...message }),
        'cluster',
      ),
    ];
    return () => stops.forEach((stop) => stop());
  });
}

interface Addressed {
  merchantId: string;
  message: ConsoleMessage;
}

/** The live notices, each addressed to its merchant: looked up once, whoever watches. */
@Injectable()
export class ConsoleStream {
  private readonly addressed: Observable<Addressed>;

  constructor(
    @Inject(API_MESSAGES) messages: ApiMessages,
    private readonly outbox: DeliveryRepository,
    private readonly terminals: TerminalRepository,
    private readonly printJobs: PrintJobRepository,
  ) {
    this.addressed = liveNotices(messages).pipe(
      // A lookup that fails loses one notice, never the stream: the console refreshes on its own too.
      mergeMap((notice) => from(this.address(notice).catch(() => undefined))),
      filter((addressed): addressed is Addressed => addressed !== undefined),
      share(),
    );
  }

  forMerchant(merchantId: string): Observable<ConsoleMessage> {
    return this.addressed.pipe(
      filter((addressed) => addressed.merchantId === merchantId),
      map((addressed) => addressed.message),
    );
  }

  private async address(notice: LiveNotice): Promise<Addressed | undefined> {
    switch (notice.kind) {
      case 'event':
        return {
          merchantId: notice.event.merchant_id,
          message: { type: 'event', serial: notice.serial, event: notice.event },
        };
      case 'attempt': {
        const target = await this.outbox.target(notice.deliveryId);
        // Erased meanwhile (a sandbox reset): nothing left to show.
        if (target === null) return undefined;
        const event = JSON.parse(target.body) as TransactionEvent;
        return {
          merchantId: event.merchant_id,
          message: {
            type: 'delivery',
            delivery_id: notice.deliveryId,
            event_id: event.event_id,
            client_transaction_id: event.client_transaction_id,
          },
        };
      }
      case 'print': {
        const terminal = await this.terminals.findBySerial(notice.serial);
        if (terminal === null) return undefined;
        const job = await this.printJobs.findOnTerminal(
          terminal.merchantId,
          notice.serial,
          notice.report.printJobId,
        );
        if (job === null) return undefined;
        return {
          merchantId: job.merchantId,
          message: { type: 'print', job: { ...printJobRecord(job), commands: job.commands } },
        };
      }
      default: {
        const unknownNotice: never = notice;
        throw new Error(`unknown live notice ${JSON.stringify(unknownNotice)}`);
      }
    }
  }
}
