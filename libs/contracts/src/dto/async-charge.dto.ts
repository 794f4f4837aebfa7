import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsDefined, IsObject, IsOptional, IsUUID, ValidateNested } from 'class-validator';
import { AmountDto } from './amount.dto';
import { IsFlatStringMap, IsWebhookUrl } from './validators';

/** Body of a charge (and, by extension, of every operation that takes an amount). */
export class ChargeDto {
  @ApiProperty({ type: () => AmountDto })
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => AmountDto)
  amount!: AmountDto;

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
}

/** Async operations also take the transaction webhook URL. */
export class AsyncChargeDto extends ChargeDto {
  @ApiPropertyOptional({
    format: 'uri',
    description:
      'transaction webhook; omit it and the transaction still runs, with no notifications (not `webhookUrl`, which belongs to print jobs)',
  })
  @IsOptional()
  @IsWebhookUrl()
  events_webhook_url?: string;
}
