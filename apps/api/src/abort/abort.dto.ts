import { ApiPropertyOptional, ApiProperty } from '@nestjs/swagger';
import { IsOptional, IsUUID } from 'class-validator';
import { IsFlatStringMap, IsWebhookUrl, METADATA_SCHEMA, WEBHOOK_URL_SCHEMA } from '@tps/contracts/dto';

/** Body of a sync abort: the operation to abort, or none for whatever runs (contract §2). */
export class SyncAbortDto {
  @ApiPropertyOptional({ format: 'uuid', description: 'the operation to abort; omitted: whatever runs' })
  @IsOptional()
  @IsUUID()
  target_client_transaction_id?: string;
}

/** Body of an async abort: like every async operation it has its own client_transaction_id. */
export class AsyncAbortDto extends SyncAbortDto {
  @ApiProperty({ format: 'uuid', description: "the abort's own id; the idempotency key" })
  @IsUUID()
  client_transaction_id!: string;

  @ApiPropertyOptional({ ...METADATA_SCHEMA, example: { reference: 'order-1234' } })
  @IsOptional()
  @IsFlatStringMap()
  metadata?: Record<string, string>;

  @ApiPropertyOptional({
    ...WEBHOOK_URL_SCHEMA,
    description: "transaction webhook for the abort's own events",
  })
  @IsOptional()
  @IsWebhookUrl()
  events_webhook_url?: string;
}
