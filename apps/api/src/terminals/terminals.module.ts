import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PrefetchedTerminals } from './prefetched-terminals';
import { TerminalEntity } from './terminal.entity';
import { TerminalRepository } from './terminal.repository';
import { TerminalResolver } from './terminal-resolver';

@Global()
@Module({
  imports: [TypeOrmModule.forFeature([TerminalEntity])],
  providers: [TerminalRepository, TerminalResolver, PrefetchedTerminals],
  exports: [TerminalRepository, TerminalResolver, PrefetchedTerminals],
})
export class TerminalsModule {}
