import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PrintJobEntity } from './print-job.entity';
import { PrintJobRepository } from './print-job.repository';
import { PrintReportIngest } from './print-report-ingest';

/** The print job records and their reports, apart from the routes so that the link can use them. */
@Module({
  imports: [TypeOrmModule.forFeature([PrintJobEntity])],
  providers: [PrintJobRepository, PrintReportIngest],
  exports: [PrintJobRepository, PrintReportIngest],
})
export class PrintJobsModule {}
