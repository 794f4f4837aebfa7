import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsDefined, IsInt, IsObject, IsOptional, IsUUID, Max, Min, ValidateNested } from 'class-validator';
import { AmountDto } from './amount.dto';
import { MAX_AMOUNT_FIELD_CENTAVOS } from './limits';
import { IsFlatStringMap, IsWebhookUrl } from './validators';

function AmountField(required: boolean, description: string): PropertyDecorator {
  const decorators: PropertyDecorator[] = [
    (required ? ApiProperty : ApiPropertyOptional)({ type: () => AmountDto, description }),
    required ? IsDefined() : IsOptional(),
    IsObject(),
    ValidateNested(),
    Type(() => AmountDto),
  ];
  return (target, key) => decorators.forEach((d) => d(target, key));
}

function ReferenceField(description: string): PropertyDecorator {
  const decorators: PropertyDecorator[] = [ApiProperty({ format: 'uuid', description }), IsUUID()];
  return (target, key) => decorators.forEach((d) => d(target, key));
}

/** What every payment operation takes: its idempotency key, metadata and, for async, a webhook. */
export class OperationDto {
  @ApiProperty({ format: 'uuid', description: 'caller-chosen correlation id; the idempotency key' })
  @IsUUID()
  client_transaction_id!: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string' },
    example: { reference: 'order-1234', device: 'pos-01' },
  })
  @IsOptional()
  @IsFlatStringMap()
  metadata?: Record<string, string>;

  @ApiPropertyOptional({
    format: 'uri',
    description:
      'transaction webhook of an async operation (not `webhookUrl`, which belongs to print jobs); a sync operation delivers no webhook',
  })
  @IsOptional()
  @IsWebhookUrl()
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

  @ApiProperty({ type: 'integer', minimum: 1, maximum: MAX_AMOUNT_FIELD_CENTAVOS, description: 'centavos' })
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
