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
import { SERIAL_PATTERN } from './limits';

export const MAX_SEARCH_LIMIT = 100;
export const DEFAULT_SEARCH_LIMIT = 20;
const MAX_CURSOR_LENGTH = 512;
/** RFC 3339 with its `T` and zone, as `format: date-time` says; `IsISO8601` then checks the date is real. */
const DATE_TIME_PATTERN =
  '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{1,9})?(Z|[+-][0-9]{2}:[0-9]{2})$';

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
    pattern: DATE_TIME_PATTERN,
    description: 'ISO 8601 (RFC 3339, with its zone); created at or after, on the merchant clock',
    example: '2026-11-22T00:00:00.000Z',
  })
  @IsOptional()
  @Matches(new RegExp(DATE_TIME_PATTERN))
  @IsISO8601({ strict: true })
  from?: string;

  @ApiPropertyOptional({
    format: 'date-time',
    pattern: DATE_TIME_PATTERN,
    description: 'ISO 8601 (RFC 3339, with its zone); created at or before, on the merchant clock',
    example: '2026-11-23T00:00:00.000Z',
  })
  @IsOptional()
  @Matches(new RegExp(DATE_TIME_PATTERN))
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

  @ApiPropertyOptional({
    maxLength: MAX_CURSOR_LENGTH,
    description: 'the next_cursor of the previous page, as given (any other value is PAR-002)',
  })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_CURSOR_LENGTH)
  cursor?: string;
}

/** Online search reads the whole merchant's records, so it can also narrow them to one terminal. */
export class OnlineTransactionSearchDto extends TransactionSearchDto {
  @ApiPropertyOptional({ pattern: SERIAL_PATTERN.source, example: 'SIM0000002' })
  @IsOptional()
  @Matches(SERIAL_PATTERN)
  terminal_serial?: string;
}
