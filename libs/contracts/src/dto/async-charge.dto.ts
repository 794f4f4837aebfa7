import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsDefined, IsObject, ValidateNested } from 'class-validator';
import { AmountDto } from './amount.dto';
import { ClientTransactionIdField, EventsWebhookUrlField, MetadataField } from './operation-fields';
import { PRINT_CALLBACK_ON_A_PAYMENT, UnknownFieldHints } from './unknown-field-hints';

/** Body of a charge (and, by extension, of every operation that takes an amount). */
@UnknownFieldHints({
  webhookUrl: PRINT_CALLBACK_ON_A_PAYMENT,
  // Only `POST /authorization` takes this class as it is; every other route takes a webhook.
  events_webhook_url:
    'POST /authorization is a sync call and delivers no webhook; for events use POST /terminal/v1/async/authorization with events_webhook_url',
})
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
