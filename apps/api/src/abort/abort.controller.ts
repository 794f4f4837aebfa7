import { Body, Controller, HttpCode, Post, Req, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import type { TransactionEvent } from '@tps/contracts';
import { TransactionEventDoc } from '@tps/contracts/dto';
import type { AbortAnswer } from '@tps/link';
import { CurrentMerchant } from '../auth/current-merchant.decorator';
import { requestTraceparent } from '@tps/observability';
import type { MerchantEntity } from '../auth/merchant.entity';
import { MerchantAuthGuard, type AuthenticatedRequest } from '../auth/merchant-auth.guard';
import { ApiErrors, TERMINAL_ROUTE_ERRORS } from '../openapi/api-errors.decorator';
import { requestFingerprint } from '../payments/operation-request';
import { Terminal, bothForms, type TerminalTarget } from '../terminals/terminal-target.decorator';
import { AsyncAbortDto, SyncAbortDto } from './abort.dto';
import { RecordedByClientId } from '../auth/recorded-by-client-id.decorator';
import { AbortService } from './abort-service';

/** The answer of a sync abort: the transaction it canceled. */
class AbortReplyDoc {
  @ApiProperty({ format: 'uuid', description: 'the aborted operation' }) client_transaction_id!: string;
  @ApiProperty({ enum: ['TERMINAL_CANCELED'] }) status!: string;
}

const SYNC_ABORT =
  'Cancels the operation running on the terminal (or the one named by `target_client_transaction_id`) while it is at TERMINAL_ACKNOWLEDGED or CARD_PRESENTED, and answers once its TERMINAL_CANCELED is stored. A target that is unknown, finished, past APPROVAL_REQUESTED or of another merchant is 409 TRX-002.';
const ASYNC_ABORT =
  'An abort with its own client_transaction_id and lifecycle: TERMINAL_ACKNOWLEDGED now, then TERMINAL_CANCELED (the target was canceled) or TERMINAL_REJECTED with TRX-002 (nothing could be aborted) to its `events_webhook_url`.';
const SYNC_ABORT_ERRORS = ['PAR-002', 'TRX-002', 'INT-003', ...TERMINAL_ROUTE_ERRORS] as const;
const ASYNC_ABORT_ERRORS = ['PAR-002', 'PAR-004', 'TRX-001', 'INT-003', ...TERMINAL_ROUTE_ERRORS] as const;

@ApiTags('payments')
@UseGuards(MerchantAuthGuard)
@Controller('terminal/v1')
export class AbortController {
  constructor(private readonly aborts: AbortService) {}

  @Post(bothForms('sync/abort'))
  @HttpCode(200)
  @ApiOperation({ summary: 'Sync abort', description: SYNC_ABORT })
  @ApiOkResponse({ type: AbortReplyDoc, description: 'the canceled transaction' })
  @ApiErrors(SYNC_ABORT_ERRORS)
  syncAbort(
    @CurrentMerchant() merchant: MerchantEntity,
    @Terminal() target: TerminalTarget,
    @Body() body: SyncAbortDto,
  ): Promise<AbortAnswer> {
    return this.aborts.sync({ merchant, ...target, target: body.target_client_transaction_id });
  }

  @Post(bothForms('async/abort'))
  @HttpCode(200)
  @ApiOperation({ summary: 'Async abort', description: ASYNC_ABORT })
  @ApiOkResponse({ type: TransactionEventDoc, description: "the abort's own TERMINAL_ACKNOWLEDGED event" })
  @ApiErrors(ASYNC_ABORT_ERRORS)
  @RecordedByClientId()
  asyncAbort(
    @CurrentMerchant() merchant: MerchantEntity,
    @Terminal() target: TerminalTarget,
    @Body() body: AsyncAbortDto,
    @Req() request: AuthenticatedRequest,
  ): Promise<TransactionEvent> {
    return this.aborts.async(
      { merchant, ...target, target: body.target_client_transaction_id },
      {
        clientTransactionId: body.client_transaction_id,
        metadata: body.metadata ?? {},
        eventsWebhookUrl: body.events_webhook_url ?? '',
        fingerprint: requestFingerprint(request),
        traceparent: requestTraceparent(request),
      },
    );
  }
}
