import { Body, Controller, HttpCode, Post, Req, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuthorizationResponse, TransactionEvent } from '@tps/contracts';
import {
  AsyncChargeDto,
  AuthorizationResponseDoc,
  CaptureDto,
  ChargeDto,
  PosTipDto,
  ReAuthorizationDto,
  RefundDto,
  VoidDto,
  amountFromDto,
  type AmountDto,
  type OperationDto,
} from '@tps/contracts/dto';
import type { OperationMode, OperationType } from '@tps/domain';
import { CurrentMerchant } from '../auth/current-merchant.decorator';
import { requestTraceparent } from '@tps/observability';
import type { MerchantEntity } from '../auth/merchant.entity';
import { MerchantAuthGuard, type AuthenticatedRequest } from '../auth/merchant-auth.guard';
import { ApiErrors, PAYMENT_ERRORS, SYNC_OUTCOME_ERRORS } from '../openapi/api-errors.decorator';
import { Terminal, bothForms, type TerminalTarget } from '../terminals/terminal-target.decorator';
import { OperationService } from './operation-service';
import { requestFingerprint, type OperationRequest } from './operation-request';
import { PaymentOperation } from './payment-operation.decorator';

/** The fields a body of any operation may carry besides the common ones. */
type AnyOperationBody = OperationDto & { amount?: AmountDto; transaction_reference?: string; tip?: number };

/**
 * Every payment operation, sync and async, each handler served in both forms: Local
 * (`/terminal/v1/sync/charge`, the terminal bound to the credentials) and Cloud
 * (`/terminal/v1/{terminalSerial}/sync/charge`).
 */
@ApiTags('payments')
@UseGuards(MerchantAuthGuard)
@Controller('terminal/v1')
export class PaymentsController {
  constructor(private readonly operations: OperationService) {}

  @Post(bothForms('sync/charge'))
  @PaymentOperation('charge', 'sync')
  syncCharge(
    @CurrentMerchant() merchant: MerchantEntity,
    @Terminal() target: TerminalTarget,
    @Body() body: AsyncChargeDto,
    @Req() request: AuthenticatedRequest,
  ): Promise<AuthorizationResponse> {
    return this.operations.runSync(operation('charge', 'sync', merchant, target, body, request));
  }

  @Post(bothForms('async/charge'))
  @PaymentOperation('charge', 'async')
  asyncCharge(
    @CurrentMerchant() merchant: MerchantEntity,
    @Terminal() target: TerminalTarget,
    @Body() body: AsyncChargeDto,
    @Req() request: AuthenticatedRequest,
  ): Promise<TransactionEvent> {
    return this.operations.startAsync(operation('charge', 'async', merchant, target, body, request));
  }

  @Post(bothForms('sync/authorization'))
  @PaymentOperation('authorization', 'sync')
  syncAuthorization(
    @CurrentMerchant() merchant: MerchantEntity,
    @Terminal() target: TerminalTarget,
    @Body() body: AsyncChargeDto,
    @Req() request: AuthenticatedRequest,
  ): Promise<AuthorizationResponse> {
    return this.operations.runSync(operation('authorization', 'sync', merchant, target, body, request));
  }

  @Post(bothForms('async/authorization'))
  @PaymentOperation('authorization', 'async')
  asyncAuthorization(
    @CurrentMerchant() merchant: MerchantEntity,
    @Terminal() target: TerminalTarget,
    @Body() body: AsyncChargeDto,
    @Req() request: AuthenticatedRequest,
  ): Promise<TransactionEvent> {
    return this.operations.startAsync(operation('authorization', 'async', merchant, target, body, request));
  }

  @Post(bothForms('sync/capture'))
  @PaymentOperation('capture', 'sync')
  syncCapture(
    @CurrentMerchant() merchant: MerchantEntity,
    @Terminal() target: TerminalTarget,
    @Body() body: CaptureDto,
    @Req() request: AuthenticatedRequest,
  ): Promise<AuthorizationResponse> {
    return this.operations.runSync(operation('capture', 'sync', merchant, target, body, request));
  }

  @Post(bothForms('async/capture'))
  @PaymentOperation('capture', 'async')
  asyncCapture(
    @CurrentMerchant() merchant: MerchantEntity,
    @Terminal() target: TerminalTarget,
    @Body() body: CaptureDto,
    @Req() request: AuthenticatedRequest,
  ): Promise<TransactionEvent> {
    return this.operations.startAsync(operation('capture', 'async', merchant, target, body, request));
  }

  @Post(bothForms('sync/re_authorization'))
  @PaymentOperation('re_authorization', 'sync')
  syncReAuthorization(
    @CurrentMerchant() merchant: MerchantEntity,
    @Terminal() target: TerminalTarget,
    @Body() body: ReAuthorizationDto,
    @Req() request: AuthenticatedRequest,
  ): Promise<AuthorizationResponse> {
    return this.operations.runSync(operation('re_authorization', 'sync', merchant, target, body, request));
  }

  @Post(bothForms('async/re_authorization'))
  @PaymentOperation('re_authorization', 'async')
  asyncReAuthorization(
    @CurrentMerchant() merchant: MerchantEntity,
    @Terminal() target: TerminalTarget,
    @Body() body: ReAuthorizationDto,
    @Req() request: AuthenticatedRequest,
  ): Promise<TransactionEvent> {
    return this.operations.startAsync(
      operation('re_authorization', 'async', merchant, target, body, request),
    );
  }

  @Post(bothForms('sync/pos_tip'))
  @PaymentOperation('pos_tip', 'sync')
  syncPosTip(
    @CurrentMerchant() merchant: MerchantEntity,
    @Terminal() target: TerminalTarget,
    @Body() body: PosTipDto,
    @Req() request: AuthenticatedRequest,
  ): Promise<AuthorizationResponse> {
    return this.operations.runSync(operation('pos_tip', 'sync', merchant, target, body, request));
  }

  @Post(bothForms('async/pos_tip'))
  @PaymentOperation('pos_tip', 'async')
  asyncPosTip(
    @CurrentMerchant() merchant: MerchantEntity,
    @Terminal() target: TerminalTarget,
    @Body() body: PosTipDto,
    @Req() request: AuthenticatedRequest,
  ): Promise<TransactionEvent> {
    return this.operations.startAsync(operation('pos_tip', 'async', merchant, target, body, request));
  }

  @Post(bothForms('sync/void'))
  @PaymentOperation('void', 'sync')
  syncVoid(
    @CurrentMerchant() merchant: MerchantEntity,
    @Terminal() target: TerminalTarget,
    @Body() body: VoidDto,
    @Req() request: AuthenticatedRequest,
  ): Promise<AuthorizationResponse> {
    return this.operations.runSync(operation('void', 'sync', merchant, target, body, request));
  }

  @Post(bothForms('async/void'))
  @PaymentOperation('void', 'async')
  asyncVoid(
    @CurrentMerchant() merchant: MerchantEntity,
    @Terminal() target: TerminalTarget,
    @Body() body: VoidDto,
    @Req() request: AuthenticatedRequest,
  ): Promise<TransactionEvent> {
    return this.operations.startAsync(operation('void', 'async', merchant, target, body, request));
  }

  /** Sync only, as the specification lists it: there is no async refund. */
  @Post(bothForms('sync/refund'))
  @PaymentOperation('refund', 'sync')
  syncRefund(
    @CurrentMerchant() merchant: MerchantEntity,
    @Terminal() target: TerminalTarget,
    @Body() body: RefundDto,
    @Req() request: AuthenticatedRequest,
  ): Promise<AuthorizationResponse> {
    return this.operations.runSync(operation('refund', 'sync', merchant, target, body, request));
  }
}

/** One operation as the use case takes it, whatever its route. */
function operation(
  type: Exclude<OperationType, 'abort'>,
  mode: OperationMode,
  merchant: MerchantEntity,
  target: TerminalTarget,
  body: AnyOperationBody,
  request: AuthenticatedRequest,
): OperationRequest {
  return {
    merchant,
    form: target.form,
    serial: target.serial,
    type,
    mode,
    clientTransactionId: body.client_transaction_id,
    amount: body.amount === undefined ? undefined : amountFromDto(body.amount),
    tip: body.tip,
    metadata: body.metadata ?? {},
    eventsWebhookUrl: body.events_webhook_url ?? '',
    transactionReference: body.transaction_reference,
    fingerprint: requestFingerprint(request),
    traceparent: requestTraceparent(request),
  };
}

/** `POST /authorization`: the specification's authorization call, a sync pre-authorization in Local form. */
@ApiTags('payments')
@UseGuards(MerchantAuthGuard)
@Controller()
export class AuthorizationController {
  constructor(private readonly operations: OperationService) {}

  @Post('authorization')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Pre-authorization (sync, Local form): the Authorization response',
    description:
      "The specification's authorization call: a sync pre-authorization on the terminal bound to the credentials. Capture, re-authorize or void it by its `rawResponse.transaction_reference`.",
  })
  @ApiOkResponse({ type: AuthorizationResponseDoc, description: 'the Authorization response' })
  @ApiErrors(PAYMENT_ERRORS, SYNC_OUTCOME_ERRORS)
  authorize(
    @CurrentMerchant() merchant: MerchantEntity,
    @Body() body: ChargeDto,
    @Req() request: AuthenticatedRequest,
  ): Promise<AuthorizationResponse> {
    return this.operations.runSync({
      merchant,
      form: 'local',
      type: 'authorization',
      mode: 'sync',
      clientTransactionId: body.client_transaction_id,
      amount: amountFromDto(body.amount),
      metadata: body.metadata ?? {},
      eventsWebhookUrl: '',
      fingerprint: requestFingerprint(request),
      traceparent: requestTraceparent(request),
    });
  }
}
