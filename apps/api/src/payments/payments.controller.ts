import { Body, Controller, HttpCode, Param, Post, Req, UseGuards } from '@nestjs/common';
import { ApiBasicAuth, ApiHeader, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { TransactionEvent } from '@tps/contracts';
import { AsyncChargeDto, TransactionEventDoc, amountFromDto } from '@tps/contracts/dto';
import { CurrentMerchant } from '../auth/current-merchant.decorator';
import type { MerchantEntity } from '../auth/merchant.entity';
import { MerchantAuthGuard, type AuthenticatedRequest } from '../auth/merchant-auth.guard';
import { TerminalSerialPipe } from '../terminals/terminal-serial.pipe';
import type { RequestForm } from '../transactions/transaction.entity';
import { OperationService } from './operation-service';
import { requestFingerprint } from './operation-request';

@ApiTags('payments')
@ApiBasicAuth()
@ApiHeader({ name: 'timestamp', required: true, description: 'Unix time in seconds' })
@UseGuards(MerchantAuthGuard)
@Controller('terminal/v1')
export class PaymentsController {
  constructor(private readonly operations: OperationService) {}

  @Post('async/charge')
  @HttpCode(200)
  @ApiOperation({ summary: 'Async charge, Local Network form (the terminal bound to the credentials)' })
  @ApiOkResponse({ type: TransactionEventDoc, description: 'the TERMINAL_ACKNOWLEDGED event' })
  asyncChargeLocal(
    @CurrentMerchant() merchant: MerchantEntity,
    @Body() body: AsyncChargeDto,
    @Req() request: AuthenticatedRequest,
  ): Promise<TransactionEvent> {
    return this.asyncCharge(merchant, 'local', undefined, body, request);
  }

  @Post(':terminalSerial/async/charge')
  @HttpCode(200)
  @ApiOperation({ summary: 'Async charge, Cloud form' })
  @ApiParam({ name: 'terminalSerial', example: 'SIM0000002' })
  @ApiOkResponse({ type: TransactionEventDoc, description: 'the TERMINAL_ACKNOWLEDGED event' })
  asyncChargeCloud(
    @CurrentMerchant() merchant: MerchantEntity,
    @Param('terminalSerial', TerminalSerialPipe) serial: string,
    @Body() body: AsyncChargeDto,
    @Req() request: AuthenticatedRequest,
  ): Promise<TransactionEvent> {
    return this.asyncCharge(merchant, 'cloud', serial, body, request);
  }

  private asyncCharge(
    merchant: MerchantEntity,
    form: RequestForm,
    serial: string | undefined,
    body: AsyncChargeDto,
    request: AuthenticatedRequest,
  ): Promise<TransactionEvent> {
    return this.operations.startAsync({
      merchant,
      form,
      serial,
      type: 'charge',
      mode: 'async',
      clientTransactionId: body.client_transaction_id,
      amount: amountFromDto(body.amount),
      metadata: body.metadata ?? {},
      eventsWebhookUrl: body.events_webhook_url ?? '',
      fingerprint: requestFingerprint(request),
    });
  }
}
