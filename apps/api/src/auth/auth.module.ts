import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { MerchantEntity } from './merchant.entity';
import { MerchantAuthGuard } from './merchant-auth.guard';
import { MerchantRepository } from './merchant.repository';

@Global()
@Module({
  imports: [TypeOrmModule.forFeature([MerchantEntity])],
  providers: [MerchantRepository, MerchantAuthGuard],
  exports: [MerchantRepository, MerchantAuthGuard],
})
export class AuthModule {}
