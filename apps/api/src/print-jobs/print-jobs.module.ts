import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PrintCallbacks } from './print-callbacks';
import { ServiceListening } from '../http/service-listening';
import { PrintJobEntity } from './print-job.entity';
import { PrintJobRepository } from './print-job.repository';
import { PrintReportIngest } from './print-report-ingest';

/**
 * The print job records, their reports and webhooks, apart from the print routes: the link takes
 * the reports in, and the routes send jobs down the link.
 */
@Module({
  imports: [TypeOrmModule.forFeature([PrintJobEntity])],
  providers: [PrintJobRepository, PrintReportIngest, PrintCallbacks, ServiceListening],
  exports: [PrintJobRepository, PrintReportIngest],
})
export class PrintJobsModule {}
