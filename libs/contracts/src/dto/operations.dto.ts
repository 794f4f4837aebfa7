import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsDefined, IsInt, IsObject, IsOptional, IsUUID, Max, Min, ValidateNested } from 'class-validator';
import { AmountDto } from './amount.dto';
import { MAX_AMOUNT_FIELD_CENTAVOS } from './limits';
import { all } from './all-decorators';
import { ClientTransactionIdField, EventsWebhookUrlField, MetadataField } from './operation-fields';
import { PRINT_CALLBACK_ON_A_PAYMENT, UnknownFieldHints } from './unknown-field-hints';

function AmountField(required: boolean, description: string): PropertyDecorator {
  return all(
    (required ? ApiProperty : ApiPropertyOptional)({ type: () => AmountDto, description }),
    required ? IsDefined() : IsOptional(),
    IsObject(),
    ValidateNested(),
    Type(() => AmountDto),
  );
}

function ReferenceField(description: string): PropertyDecorator {
  return all(ApiProperty({ format: 'uuid', description }), IsUUID());
}

/** What every payment operation takes: its idempotency key, metadata and, for async, a webhook. */
@UnknownFieldHints({ webhookUrl: PRINT_CALLBACK_ON_A_PAYMENT })
export class OperationDto {
  @ClientTransactionIdField()
  client_transaction_id!: string;

  @MetadataField()
  metadata?: Record<string, string>;

  @EventsWebhookUrlField(
    'transaction webhook of an async operation (not `webhookUrl`, which belongs to print jobs); a sync operation delivers no webhook',
  )
  events_webhook_url?: string;
}

export class CaptureDto extends OperationDto {
  @ReferenceField("the authorization's transaction_reference")
  transaction_reference!: string;

  @AmountField(false, 'at most the authorized amount; absent: the whole authorized amount')
  amount?: AmountDto;
}

export class ReAuthorizationDto extends OperationDto {
  @ReferenceField("the authorization's transaction_reference")
  transaction_reference!: string;

  @AmountField(true, 'the new authorized total')
  amount!: AmountDto;
}

export class PosTipDto extends OperationDto {
  @ReferenceField("the charge's or the capture's transaction_reference")
  transaction_reference!: string;

  @ApiProperty({
    type: 'integer',
    minimum: 1,
    maximum: MAX_AMOUNT_FIELD_CENTAVOS,
    description: 'centavos',
    example: 1500,
  })
  @IsInt()
  @Min(0)
  @Max(MAX_AMOUNT_FIELD_CENTAVOS)
  tip!: number;
}

export class VoidDto extends OperationDto {
  @ReferenceField("the charge's, the capture's or the authorization's transaction_reference")
  transaction_reference!: string;
}

export class RefundDto extends OperationDto {
  @ReferenceField("the charge's or the capture's transaction_reference")
  transaction_reference!: string;

  @AmountField(false, 'at most what is left to refund (amount plus tip); absent: all that is left')
  amount?: AmountDto;
}
