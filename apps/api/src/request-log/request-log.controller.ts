import { Controller, Get, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentMerchant } from '../auth/current-merchant.decorator';
import type { MerchantEntity } from '../auth/merchant.entity';
import { MerchantAuthGuard } from '../auth/merchant-auth.guard';
import { MerchantRequestLog, REQUESTS_PER_MERCHANT, type RequestRecord } from './merchant-request-log';
import { RequestRecordDoc } from './request-log.doc';

@ApiTags('sandbox')
@UseGuards(MerchantAuthGuard)
@Controller('sandbox/requests')
export class RequestLogController {
  constructor(private readonly log: MerchantRequestLog) {}

  @Get()
  @ApiOperation({
    summary: "The merchant's own recent requests, newest first",
    description: `The last ${REQUESTS_PER_MERCHANT} signed requests of the caller's merchant that this replica answered (with several replicas, each keeps its own): time, method, path, status, duration and \`Request-Id\`; never a header or a body.`,
  })
  @ApiOkResponse({ type: [RequestRecordDoc], description: 'recent requests, newest first' })
  list(@CurrentMerchant() merchant: MerchantEntity): RequestRecord[] {
    return this.log.recent(merchant.merchantId);
  }
}
