import { Controller, Get, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentMerchant } from '../auth/current-merchant.decorator';
import type { MerchantEntity } from '../auth/merchant.entity';
import { MerchantAuthGuard } from '../auth/merchant-auth.guard';
import { RequestLog, REQUESTS_PER_MERCHANT, type RequestRecord } from './request-log';
import { RequestRecordDoc } from './request-log.doc';

@ApiTags('sandbox')
@UseGuards(MerchantAuthGuard)
@Controller('sandbox/requests')
export class RequestLogController {
  constructor(private readonly log: RequestLog) {}

  @Get()
  @ApiOperation({
    summary: "The merchant's own recent requests, newest first",
    description: `The last ${REQUESTS_PER_MERCHANT} signed requests of the caller's merchant that the service answered (with several replicas, whichever answered them): time, method, path, status, duration and \`Request-Id\`; never a header or a body.`,
  })
  @ApiOkResponse({ type: [RequestRecordDoc], description: 'recent requests, newest first' })
  list(@CurrentMerchant() merchant: MerchantEntity): Promise<RequestRecord[]> {
    return this.log.recent(merchant.merchantId);
  }
}
