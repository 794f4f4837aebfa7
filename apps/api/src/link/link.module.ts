import { Global, Module } from '@nestjs/common';
import { TransactionsModule } from '../transactions/transactions.module';
import { LinkServer } from './link-server';
import { TerminalLinks } from './terminal-links';

@Global()
@Module({
  imports: [TransactionsModule],
  providers: [TerminalLinks, LinkServer],
  exports: [TerminalLinks],
})
export class LinkModule {}
