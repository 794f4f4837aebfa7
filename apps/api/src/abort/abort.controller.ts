import { Body, Controller, HttpCode, Param, Post, Req, UseGuards } from '@nestjs/common';
import { ApiBasicAuth, ApiHeader, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { TransactionEvent } from '@tps/contracts';
import { TransactionEventDoc } from '@tps/contracts/dto';
import type { AbortAnswer } from '@tps/link';
import { CurrentMerchant } from '../auth/current-merchant.decorator';
import type { MerchantEntity } from '../auth/merchant.entity';
import { MerchantAuthGuard, type AuthenticatedRequest } from '../auth/merchant-auth.guard';
import { requestFingerprint } from '../payments/operation-request';
import { TerminalSerialPipe } from '../terminals/terminal-serial.pipe';
import type { RequestForm } from '../transactions/transaction.entity';
import { AsyncAbortDto, SyncAbortDto } from './abort.dto';
import { AbortService } from './abort-service';

@ApiTags('payments')
@ApiBasicAuth()
@ApiHeader({ name: 'timestamp', required: true, description: 'Unix time in seconds' })
@UseGuards(MerchantAuthGuard)
@Controller('terminal/v1')
export class AbortController {
  constructor(private readonly aborts: AbortService) {}

  @Post('sync/abort')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Sync abort, Local Network form: 200 with the canceled transaction, or 409 TRX-002',
  })
  syncLocal(@CurrentMerchant() merchant: MerchantEntity, @Body() body: SyncAbortDto): Promise<AbortAnswer> {
    return this.aborts.sync({ merchant, form: 'local', target: body.target_client_transaction_id });
  }

  @Post(':terminalSerial/sync/abort')
  @HttpCode(200)
  @ApiOperation({ summary: 'Sync abort, Cloud form' })
  @ApiParam({ name: 'terminalSerial', example: 'SIM0000002' })
  syncCloud(
    @CurrentMerchant() merchant: MerchantEntity,
    @Param('terminalSerial', TerminalSerialPipe) serial: string,
    @Body() body: SyncAbortDto,
  ): Promise<AbortAnswer> {
    return this.aborts.sync({ merchant, form: 'cloud', serial, target: body.target_client_transaction_id });
  }

  @Post('async/abort')
  @HttpCode(200)
  @ApiOperation({ summary: 'Async abort, Local Network form: its own TERMINAL_ACKNOWLEDGED event' })
  @ApiOkResponse({ type: TransactionEventDoc })
  asyncLocal(
    @CurrentMerchant() merchant: MerchantEntity,
    @Body() body: AsyncAbortDto,
    @Req() request: AuthenticatedRequest,
  ): Promise<TransactionEvent> {
    return this.async(merchant, 'local', undefined, body, request);
  }

  @Post(':terminalSerial/async/abort')
  @HttpCode(200)
  @ApiOperation({ summary: 'Async abort, Cloud form' })
  @ApiParam({ name: 'terminalSerial', example: 'SIM0000002' })
  @ApiOkResponse({ type: TransactionEventDoc })
  asyncCloud(
    @CurrentMerchant() merchant: MerchantEntity,
    @Param('terminalSerial', TerminalSerialPipe) serial: string,
    @Body() body: AsyncAbortDto,
    @Req() request: AuthenticatedRequest,
  ): Promise<TransactionEvent> {
    return this.async(merchant, 'cloud', serial, body, request);
  }

  private async(
    merchant: MerchantEntity,
    form: RequestForm,
    serial: string | undefined,
    body: AsyncAbortDto,
    request: AuthenticatedRequest,
  ): Promise<TransactionEvent> {
    return this.aborts.async(
      { merchant, form, serial, target: body.target_client_transaction_id },
      {
        clientTransactionId: body.client_transaction_id,
        metadata: body.metadata ?? {},
        eventsWebhookUrl: body.events_webhook_url ?? '',
        fingerprint: requestFingerprint(request),
      },
    );
  }
}
