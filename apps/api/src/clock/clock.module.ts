import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { MerchantEntity } from '../auth/merchant.entity';
import { MerchantClock } from './merchant-clock';
import { MerchantClockRepository } from './merchant-clock.repository';
import { SandboxClockController } from './sandbox-clock.controller';

/** The sandbox clock routes; registered in the sandbox profile only. */
@Module({
  imports: [TypeOrmModule.forFeature([MerchantEntity])],
  controllers: [SandboxClockController],
  providers: [MerchantClock, MerchantClockRepository],
})
export class SandboxClockModule {}
