import { ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsIn,
  IsInt,
  IsISO8601,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { LIFECYCLE_STATUSES, OPERATION_TYPES, type LifecycleStatus, type OperationType } from '@tps/domain';

export const MAX_SEARCH_LIMIT = 100;
export const DEFAULT_SEARCH_LIMIT = 20;

/** Filters of a local transaction search (contract §7), all optional and combined with AND. */
export class TransactionSearchDto {
  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUUID()
  client_transaction_id?: string;

  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUUID()
  transaction_reference?: string;

  @ApiPropertyOptional({ enum: LIFECYCLE_STATUSES })
  @IsOptional()
  @IsIn(LIFECYCLE_STATUSES)
  status?: LifecycleStatus;

  @ApiPropertyOptional({ enum: OPERATION_TYPES })
  @IsOptional()
  @IsIn(OPERATION_TYPES)
  operation_type?: OperationType;

  @ApiPropertyOptional({
    format: 'date-time',
    description: 'ISO 8601; created at or after, on the merchant clock',
  })
  @IsOptional()
  @IsISO8601({ strict: true })
  from?: string;

  @ApiPropertyOptional({
    format: 'date-time',
    description: 'ISO 8601; created at or before, on the merchant clock',
  })
  @IsOptional()
  @IsISO8601({ strict: true })
  to?: string;

  // No `default` in the schema: generated clients would then type the field as required.
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: MAX_SEARCH_LIMIT,
    description: `items per page; ${DEFAULT_SEARCH_LIMIT} when omitted`,
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_SEARCH_LIMIT)
  limit?: number;

  @ApiPropertyOptional({ description: 'the next_cursor of the previous page' })
  @IsOptional()
  @IsString()
  @MaxLength(512)
  cursor?: string;
}

/** Online search reads the whole merchant's records, so it can also narrow them to one terminal. */
export class OnlineTransactionSearchDto extends TransactionSearchDto {
  @ApiPropertyOptional({ example: 'SIM0000002' })
  @IsOptional()
  @Matches(/^[A-Za-z0-9_-]{1,32}$/)
  terminal_serial?: string;
}
