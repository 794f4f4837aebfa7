import { Global, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { MerchantActivity, SerialWriter, portsOf } from '@tps/database';
import { AccountActivity } from './account-activity';
import { MerchantAuthGuard } from './merchant-auth.guard';
import { MerchantRateLimiter } from './merchant-rate-limiter';
import { MerchantRepository } from './merchant.repository';

@Global()
@Module({
  providers: [
    MerchantRepository,
    MerchantRateLimiter,
    MerchantAuthGuard,
    AccountActivity,
    {
      provide: MerchantActivity,
      useFactory: (reads: DataSource, writer: SerialWriter) => portsOf(reads).merchantActivity(writer),
      inject: [DataSource, SerialWriter],
    },
  ],
  exports: [MerchantRepository, MerchantRateLimiter, MerchantAuthGuard, AccountActivity],
})
export class AuthModule {}
