import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsUUID } from 'class-validator';
import { all } from './all-decorators';
import { IsFlatStringMap, IsWebhookUrl, METADATA_SCHEMA, WEBHOOK_URL_SCHEMA } from './validators';

export const ClientTransactionIdField = (): PropertyDecorator =>
  all(
    ApiProperty({ format: 'uuid', description: 'caller-chosen correlation id; the idempotency key' }),
    IsUUID(),
  );

export const MetadataField = (): PropertyDecorator =>
  all(
    ApiPropertyOptional({
      ...METADATA_SCHEMA,
      description: 'a flat object of strings, echoed in the events',
      example: { reference: 'order-1234', device: 'pos-01' },
    }),
    IsOptional(),
    IsFlatStringMap(),
  );

export const EventsWebhookUrlField = (description: string): PropertyDecorator =>
  all(ApiPropertyOptional({ ...WEBHOOK_URL_SCHEMA, description }), IsOptional(), IsWebhookUrl());
