import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsUUID } from 'class-validator';
import { all } from './all-decorators';
import { IsFlatStringMap, IsWebhookUrl } from './validators';

export const ClientTransactionIdField = (): PropertyDecorator =>
  all(
    ApiProperty({ format: 'uuid', description: 'caller-chosen correlation id; the idempotency key' }),
    IsUUID(),
  );

export const MetadataField = (): PropertyDecorator =>
  all(
    ApiPropertyOptional({
      type: 'object',
      additionalProperties: { type: 'string' },
      example: { reference: 'order-1234', device: 'pos-01' },
    }),
    IsOptional(),
    IsFlatStringMap(),
  );

export const EventsWebhookUrlField = (description: string): PropertyDecorator =>
  all(ApiPropertyOptional({ format: 'uri', description }), IsOptional(), IsWebhookUrl());
