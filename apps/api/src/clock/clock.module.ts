import { Module } from '@nestjs/common';
import { MerchantClock } from './merchant-clock';
import { MerchantClockRepository } from './merchant-clock.repository';
import { SandboxClockController } from './sandbox-clock.controller';

/** The sandbox clock routes; registered in the sandbox profile only. */
@Module({
  controllers: [SandboxClockController],
  providers: [MerchantClock, MerchantClockRepository],
})
export class SandboxClockModule {}
