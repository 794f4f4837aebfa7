import { Inject, Injectable, Logger } from '@nestjs/common';
import type { PrintJobReport } from '@tps/link';
import { API_MESSAGES, type ApiMessages } from '../messages/api-messages';
import { PrintCallbacks } from './print-callbacks';
import { PrintJobRepository } from './print-job.repository';

/**
 * Takes in the print job reports a terminal sends up its uplink, so that polling shows them; a
 * report that finishes a job calls its webhook back once the result is stored.
 */
@Injectable()
export class PrintReportIngest {
  private readonly logger = new Logger('PrintReports');

  constructor(
    private readonly jobs: PrintJobRepository,
    private readonly callbacks: PrintCallbacks,
    @Inject(API_MESSAGES) private readonly messages: ApiMessages,
  ) {}

  async ingest(serial: string, report: PrintJobReport): Promise<void> {
    const result = await this.jobs.applyReport(serial, report);
    if (!result.applied) {
      this.logger.warn(
        `report of print job ${report.printJobId} from ${serial} names no job of that terminal; dropped`,
      );
      return;
    }
    this.messages.publish('print.report', { serial, report });
    if (result.finished !== null) this.callbacks.send(result.finished, report.traceparent);
  }
}
