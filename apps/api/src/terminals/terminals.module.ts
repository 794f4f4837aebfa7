import { Global, Module } from '@nestjs/common';
import { PrefetchedTerminals } from './prefetched-terminals';
import { TerminalRepository } from './terminal.repository';
import { TerminalResolver } from './terminal-resolver';

@Global()
@Module({
  providers: [TerminalRepository, TerminalResolver, PrefetchedTerminals],
  exports: [TerminalRepository, TerminalResolver, PrefetchedTerminals],
})
export class TerminalsModule {}
