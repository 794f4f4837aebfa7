import { ContractError, transitionPrintJob, type PrintJobStatus, type TerminalPace } from '@tps/domain';
import {
  LinkUnavailableError,
  type PrintJobReport,
  type PrintOrder,
  type TerminalProfile,
  type UplinkRequest,
} from '@tps/link';
import { REAL_TIMERS, type Timers } from '../runtime/timers';
import type { PrintJobChanges, PrintStore } from './print-store';

/** What the printer needs of the store (an interface, so that unit tests can stand in for it). */
export type PrintQueueStore = Pick<
  PrintStore,
  'enqueue' | 'nextToPrint' | 'update' | 'unreported' | 'markReported'
>;
import { renderReceipt } from './receipt-renderer';
import type { TerminalPrintJobEntity } from './terminal-print-job.entity';

/** The terminal's uplink as the printer uses it: to report its jobs to the service. */
export interface PrinterUplink {
  readonly isUp: boolean;
  request(body: UplinkRequest, timeoutMs: number): Promise<unknown>;
}

/** How long the paper takes to come out, by the terminal's pace. */
const PRINT_MS: Record<TerminalPace, number> = { instant: 0, fast: 30, realistic: 1500 };

/** The printer conditions of the sandbox settings that make a job fail (contract §11, §12). */
const FAILURES: Record<string, { errorCode: string; errorMessage: string } | undefined> = {
  cover_open: { errorCode: 'COVER_OPEN', errorMessage: 'the printer cover is open' },
  paper_out: { errorCode: 'PAPER_OUT', errorMessage: 'the printer is out of paper' },
};

const REPORT_TIMEOUT_MS = 10_000;
/**
 * After a report the service did not answer in time, while the link stays up: when the printer
 * sends again. Nothing else would (no reopening of the link, perhaps no next job), and the job's
 * callback waits on that report.
 */
const UNANSWERED_REPORT_RETRY_MS = 1000;
const REPORT_BATCH = 50;

function sleep(ms: number): Promise<void> {
  return ms <= 0 ? Promise.resolve() : new Promise((resolve) => setTimeout(resolve, ms));
}

export function jobReport(job: TerminalPrintJobEntity): PrintJobReport {
  const report: PrintJobReport = { printJobId: job.printJobId, status: job.status, updatedAt: job.updatedAt };
  if (job.errorCode !== null) report.errorCode = job.errorCode;
  if (job.errorMessage !== null) report.errorMessage = job.errorMessage;
  if (job.printedText !== null) report.printedText = job.printedText;
  if (job.order.traceparent !== undefined) report.traceparent = job.order.traceparent;
  return report;
}

/**
 * A terminal's printer: one job at a time, in the order taken, PENDING → IN_PROGRESS →
 * COMPLETED, or FAILED while the printer is set to a failing condition. Each change is reported
 * up the uplink, again after a cut or a restart until the service acknowledges it. The printer
 * sends no webhook: the service calls back once it has stored the result, so that a receiver
 * never hears of a state that polling does not show yet (contract §13).
 */
export class TerminalPrinter {
  private printing = false;
  private printAgain = false;
  private reporting = false;
  private reportAgain = false;
  private stopped = false;
  private cancelRetry: (() => void) | undefined;

  constructor(
    private readonly serial: string,
    private readonly profile: () => TerminalProfile,
    private readonly store: PrintQueueStore,
    private readonly uplink: PrinterUplink,
    private readonly log: (message: string) => void,
    private readonly timers: Timers = REAL_TIMERS,
  ) {}

  /** Takes a job into the queue and answers at once; printing goes on in the background. */
  async enqueue(order: PrintOrder): Promise<PrintJobReport> {
    const job = await this.store.enqueue(this.serial, order, this.now(order));
    this.report();
    this.work();
    return jobReport(job);
  }

  /** Resumes what a restart left: jobs to print, changes to report. */
  start(): void {
    this.work();
    this.report();
  }

  /** Takes no job and reports nothing more (sandbox reset or removal: its queue is erased). */
  stop(): void {
    this.stopped = true;
    this.cancelRetry?.();
  }

  /** Sends the changes the service has not acknowledged (also called when the uplink opens). */
  report(): void {
    if (this.stopped) return;
    if (this.reporting) {
      this.reportAgain = true;
      return;
    }
    this.reporting = true;
    this.sendReports()
      .catch((error: unknown) => this.log(`printer ${this.serial}: reporting stopped: ${String(error)}`))
      .finally(() => {
        this.reporting = false;
        if (this.reportAgain) {
          this.reportAgain = false;
          this.report();
        }
      });
  }

  private work(): void {
    if (this.stopped) return;
    if (this.printing) {
      this.printAgain = true;
      return;
    }
    this.printing = true;
    this.printQueue()
      .catch((error: unknown) => this.log(`printer ${this.serial}: ${String(error)}`))
      .finally(() => {
        this.printing = false;
        if (this.printAgain) {
          this.printAgain = false;
          this.work();
        }
      });
  }

  private async printQueue(): Promise<void> {
    while (!this.stopped) {
      this.printAgain = false;
      const job = await this.store.nextToPrint(this.serial);
      if (job === null) return;
      await this.print(job);
    }
  }

  private async print(queued: TerminalPrintJobEntity): Promise<void> {
    let job = queued;
    if (job.status === 'PENDING') job = await this.move(job, 'IN_PROGRESS', {});
    await sleep(PRINT_MS[this.profile().pace]);
    const failure = FAILURES[this.profile().printer];
    if (failure === undefined) {
      await this.move(job, 'COMPLETED', { printedText: renderReceipt(job.order.commands) });
    } else {
      await this.move(job, 'FAILED', failure);
    }
  }

  private async move(
    job: TerminalPrintJobEntity,
    to: PrintJobStatus,
    changes: PrintJobChanges,
  ): Promise<TerminalPrintJobEntity> {
    const status = transitionPrintJob(job.status, to);
    const moved = await this.store.update(job, { ...changes, status, updatedAt: this.now(job.order) });
    this.report();
    return moved;
  }

  private async sendReports(): Promise<void> {
    for (;;) {
      this.reportAgain = false;
      const batch = await this.store.unreported(this.serial, REPORT_BATCH);
      if (batch.length === 0) return;
      for (const job of batch) {
        if (!this.uplink.isUp) return;
        try {
          await this.uplink.request({ type: 'print', report: jobReport(job) }, REPORT_TIMEOUT_MS);
        } catch (error) {
          if (error instanceof LinkUnavailableError) {
            // A cut link: the uplink calls again when it is back. A report unanswered, or answered
            // unreadably: later (a report carries the whole state, so sending it again is harmless).
            if (error.reason !== 'closed') this.retryLater();
            return;
          }
          // The service answered, and refused: sending it again would not change its mind.
          if (!(error instanceof ContractError)) throw error;
          this.log(
            `printer ${this.serial}: the service refused the report of ${job.printJobId}: ${error.message}`,
          );
        }
        await this.store.markReported(job);
      }
    }
  }

  private retryLater(): void {
    this.cancelRetry?.();
    this.cancelRetry = this.timers.after(UNANSWERED_REPORT_RETRY_MS, () => {
      this.cancelRetry = undefined;
      this.report();
    });
  }

  private now(order: PrintOrder): string {
    return new Date(Date.now() + order.clockOffsetMs).toISOString();
  }
}
