import { ApiProperty } from '@nestjs/swagger';

/** OpenAPI description of one entry of a merchant's request log. */
export class RequestRecordDoc {
  @ApiProperty({ format: 'date-time', description: 'when the request arrived (real time, UTC)' }) at!: string;
  @ApiProperty({ example: 'POST' }) method!: string;
  @ApiProperty({ example: '/terminal/v1/sync/charge', description: 'the request target as sent' })
  path!: string;
  @ApiProperty({ example: 200 }) status!: number;
  @ApiProperty({ example: 12.5, description: 'from arrival to the answer sent, in milliseconds' })
  duration_ms!: number;
  @ApiProperty({ description: 'the `Request-Id` of the answer' }) request_id!: string;
}
