import { Module } from '@nestjs/common';
import { PrintJobsModule } from '../print-jobs/print-jobs.module';
import { ConsoleEventsController } from './console-events.controller';
import { ConsolePageController } from './console-page.controller';
import { ConsoleStream } from './console-stream';

/** The demo console (contract §15, sandbox profile only): its page and its live stream. */
@Module({
  imports: [PrintJobsModule],
  controllers: [ConsolePageController, ConsoleEventsController],
  providers: [ConsoleStream],
})
export class ConsoleModule {}
