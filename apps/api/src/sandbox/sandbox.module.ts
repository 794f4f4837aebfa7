import { Module } from '@nestjs/common';
import { SandboxTerminalsController } from './sandbox-terminals.controller';
import { SandboxTerminals } from './sandbox-terminals';

@Module({
  controllers: [SandboxTerminalsController],
  providers: [SandboxTerminals],
})
export class SandboxModule {}
