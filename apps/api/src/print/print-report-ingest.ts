import { Injectable, Logger } from '@nestjs/common';
import type { PrintJobReport } from '@tps/link';
import { LiveFeed } from '../live/live-feed';
import { PrintJobRepository } from './print-job.repository';

/** Takes in the print job reports a terminal sends up its uplink, so that polling shows them. */
@Injectable()
export class PrintReportIngest {
  private readonly logger = new Logger('PrintReports');

  constructor(
    private readonly jobs: PrintJobRepository,
    private readonly live: LiveFeed,
  ) {}

  async ingest(serial: string, report: PrintJobReport): Promise<void> {
    const result = await this.jobs.applyReport(serial, report);
    if (result === 'applied') this.live.printReport(serial, report);
    if (result === 'unknown') {
      this.logger.warn(
        `report of print job ${report.printJobId} from ${serial} names no job of that terminal; dropped`,
      );
    }
  }
}
