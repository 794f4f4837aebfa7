import { Module } from '@nestjs/common';
import { PrintCallbacks } from './print-callbacks';
import { ServiceListening } from '../http/service-listening';
import { PrintJobRepository } from './print-job.repository';
import { PrintReportIngest } from './print-report-ingest';

/**
 * The print job records, their reports and webhooks, apart from the print routes: the link takes
 * the reports in, and the routes send jobs down the link.
 */
@Module({
  providers: [PrintJobRepository, PrintReportIngest, PrintCallbacks, ServiceListening],
  exports: [PrintJobRepository, PrintReportIngest],
})
export class PrintJobsModule {}
