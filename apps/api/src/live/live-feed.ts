import { Injectable } from '@nestjs/common';
import { Subject, type Observable } from 'rxjs';
import type { TransactionEvent } from '@tps/contracts';
import type { PrintJobReport } from '@tps/link';

/** What was just stored, as the write paths tell it; readers look up the rest themselves. */
export type LiveNotice =
  | { kind: 'event'; serial: string; event: TransactionEvent }
  | { kind: 'attempt'; deliveryId: string }
  | { kind: 'print'; serial: string; report: PrintJobReport };

/**
 * The in-process bus between the write paths and whoever watches (the console's live stream,
 * the payment outcome log). Each write path calls it once, after its write, and never waits on
 * it: a notice with nobody listening costs one function call.
 */
@Injectable()
export class LiveFeed {
  private readonly subject = new Subject<LiveNotice>();

  get notices(): Observable<LiveNotice> {
    return this.subject.asObservable();
  }

  get watched(): boolean {
    return this.subject.observed;
  }

  transactionEvent(serial: string, event: TransactionEvent): void {
    this.subject.next({ kind: 'event', serial, event });
  }

  deliveryAttempt(deliveryId: string): void {
    this.subject.next({ kind: 'attempt', deliveryId });
  }

  printReport(serial: string, report: PrintJobReport): void {
    this.subject.next({ kind: 'print', serial, report });
  }
}
