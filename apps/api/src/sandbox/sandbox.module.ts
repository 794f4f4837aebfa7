import { Module } from '@nestjs/common';
import { CardholderLapse } from './cardholder-lapse';
import { RealClock } from './real-clock';
import { SandboxTerminalsController } from './sandbox-terminals.controller';
import { SandboxTerminals } from './sandbox-terminals';

@Module({
  controllers: [SandboxTerminalsController],
  providers: [SandboxTerminals, CardholderLapse, RealClock],
  exports: [SandboxTerminals],
})
export class SandboxModule {}
