import { Body, Controller, HttpCode, Param, Post, Req, UseGuards, applyDecorators } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { AuthorizationResponse, TransactionEvent } from '@tps/contracts';
import {
  AuthorizationResponseDoc,
  ChargeDto,
  TransactionEventDoc,
  amountFromDto,
  type AmountDto,
  type OperationDto,
} from '@tps/contracts/dto';
import { isFollowUp, type OperationMode } from '@tps/domain';
import { CurrentMerchant } from '../auth/current-merchant.decorator';
import type { MerchantEntity } from '../auth/merchant.entity';
import { MerchantAuthGuard, type AuthenticatedRequest } from '../auth/merchant-auth.guard';
import {
  ApiErrors,
  FOLLOW_UP_ERRORS,
  PAYMENT_ERRORS,
  SYNC_OUTCOME_ERRORS,
} from '../openapi/api-errors.decorator';
import { TerminalSerialPipe } from '../terminals/terminal-serial.pipe';
import type { RequestForm } from '../transactions/transaction.entity';
import { OPERATION_ROUTES, type OperationRoute } from './operation-routes';
import { OperationService } from './operation-service';
import { requestFingerprint, type OperationRequest } from './operation-request';

/** The fields a body of any operation may carry besides the common ones. */
type AnyOperationBody = OperationDto & { amount?: AmountDto; transaction_reference?: string; tip?: number };

type Answer = Promise<TransactionEvent | AuthorizationResponse>;

/** Every payment operation in Local and Cloud form, sync and async; routes from OPERATION_ROUTES. */
@ApiTags('payments')
@UseGuards(MerchantAuthGuard)
@Controller('terminal/v1')
export class PaymentsController {
  constructor(private readonly operations: OperationService) {}

  run(
    route: OperationRoute,
    mode: OperationMode,
    form: RequestForm,
    merchant: MerchantEntity,
    serial: string | undefined,
    body: AnyOperationBody,
    request: AuthenticatedRequest,
  ): Answer {
    const operation: OperationRequest = {
      merchant,
      form,
      serial,
      type: route.type,
      mode,
      clientTransactionId: body.client_transaction_id,
      amount: body.amount === undefined ? undefined : amountFromDto(body.amount),
      tip: body.tip,
      metadata: body.metadata ?? {},
      eventsWebhookUrl: body.events_webhook_url ?? '',
      transactionReference: body.transaction_reference,
      fingerprint: requestFingerprint(request),
    };
    return mode === 'sync' ? this.operations.runSync(operation) : this.operations.startAsync(operation);
  }
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
    });
  }
}

const MODE_DESCRIPTIONS: Record<OperationMode, string> = {
  sync: "Answers the acquirer's Authorization response once the transaction ends (a decline is 200 with `approved: false`); an end on the terminal is 409 with its TER code. A repeat with the same client_transaction_id answers the first outcome.",
  async:
    'Answers the TERMINAL_ACKNOWLEDGED event at once; later events go to `events_webhook_url`. A repeat with the same client_transaction_id answers the same acknowledgement.',
};

/**
 * Declares one route of the table on PaymentsController, as the decorators of a hand-written
 * handler would: its path, its parameters and the body class that validation and OpenAPI read.
 */
function declareRoute(route: OperationRoute, mode: OperationMode, form: RequestForm): void {
  const prototype = PaymentsController.prototype as unknown as Record<string, unknown>;
  const name = `${mode}_${route.type}_${form}`;
  function handler(
    this: PaymentsController,
    merchant: MerchantEntity,
    body: AnyOperationBody,
    request: AuthenticatedRequest,
    serial?: string,
  ): Answer {
    return this.run(route, mode, form, merchant, serial, body, request);
  }
  // OpenAPI finds a handler's parameters by the function's own name.
  Object.defineProperty(handler, 'name', { value: name });
  Object.defineProperty(prototype, name, { value: handler, writable: true, configurable: true });
  const descriptor = Object.getOwnPropertyDescriptor(prototype, name) as PropertyDescriptor;
  const parameterTypes: unknown[] = [Object, route.body, Object];
  CurrentMerchant()(prototype, name, 0);
  Body()(prototype, name, 1);
  Req()(prototype, name, 2);
  if (form === 'cloud') {
    parameterTypes.push(String);
    Param('terminalSerial', TerminalSerialPipe)(prototype, name, 3);
  }
  Reflect.defineMetadata('design:paramtypes', parameterTypes, prototype, name);
  const path = `${form === 'cloud' ? ':terminalSerial/' : ''}${mode}/${route.type}`;
  applyDecorators(
    Post(path),
    HttpCode(200),
    ApiOperation({
      summary: `${route.summary} (${mode}, ${form === 'cloud' ? 'Cloud form' : 'Local Network form: the terminal bound to the credentials'})`,
      description: `${route.description} ${MODE_DESCRIPTIONS[mode]}`,
    }),
    mode === 'async'
      ? ApiOkResponse({ type: TransactionEventDoc, description: 'the TERMINAL_ACKNOWLEDGED event' })
      : ApiOkResponse({ type: AuthorizationResponseDoc, description: 'the Authorization response' }),
    ApiErrors(
      isFollowUp(route.type) ? FOLLOW_UP_ERRORS : PAYMENT_ERRORS,
      mode === 'sync' ? SYNC_OUTCOME_ERRORS : [],
    ),
    ...(form === 'cloud' ? [ApiParam({ name: 'terminalSerial', example: 'SIM0000002' })] : []),
  )(prototype, name, descriptor);
}

for (const route of OPERATION_ROUTES) {
  for (const mode of route.modes) {
    for (const form of ['local', 'cloud'] as const) declareRoute(route, mode, form);
  }
}
