import { Global, Module } from '@nestjs/common';
import { PrintJobsModule } from '../print-jobs/print-jobs.module';
import { TransactionsModule } from '../transactions/transactions.module';
import { LinkServer } from './link-server';
import { TerminalLinks } from './terminal-links';

@Global()
@Module({
  imports: [TransactionsModule, PrintJobsModule],
  providers: [TerminalLinks, LinkServer],
  exports: [TerminalLinks],
})
export class LinkModule {}
