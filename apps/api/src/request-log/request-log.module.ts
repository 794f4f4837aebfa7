import { Module } from '@nestjs/common';
import { MerchantRequestLog } from './merchant-request-log';
import { RequestLogController } from './request-log.controller';

/** A merchant's own request log (sandbox profile only, docs/contract.md "Request ids"). */
@Module({
  controllers: [RequestLogController],
  providers: [MerchantRequestLog],
  exports: [MerchantRequestLog],
})
export class RequestLogModule {}
