import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsDefined, IsObject, ValidateNested } from 'class-validator';
import { AmountDto } from './amount.dto';
import { ClientTransactionIdField, EventsWebhookUrlField, MetadataField } from './operation-fields';

/** Body of a charge (and, by extension, of every operation that takes an amount). */
export class ChargeDto {
  @ApiProperty({ type: () => AmountDto })
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => AmountDto)
  amount!: AmountDto;

  @ClientTransactionIdField()
  client_transaction_id!: string;

  @MetadataField()
  metadata?: Record<string, string>;
}

/** Async operations also take the transaction webhook URL. */
export class AsyncChargeDto extends ChargeDto {
  @EventsWebhookUrlField(
    'transaction webhook; omit it and the transaction still runs, with no notifications (not `webhookUrl`, which belongs to print jobs)',
  )
  events_webhook_url?: string;
}
