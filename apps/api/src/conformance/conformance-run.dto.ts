import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsArray, IsIn, IsOptional } from 'class-validator';
import { IsWebhookUrl, WEBHOOK_URL_SCHEMA } from '@tps/contracts/dto';
import { CASE_NAMES, type CaseName } from './conformance-cases';

/** Body of `POST /sandbox/conformance-runs` (contract §17). */
export class StartConformanceRunDto {
  @ApiProperty({
    ...WEBHOOK_URL_SCHEMA,
    example: 'http://127.0.0.1:4000/webhooks/payments',
    description: "the receiver under test; the profile's webhook URL rules apply (PAR-004)",
  })
  @IsWebhookUrl()
  url!: string;

  @ApiPropertyOptional({
    ...WEBHOOK_URL_SCHEMA,
    example: 'http://127.0.0.1:4000/processed',
    description:
      'where the receiver reports what it processed: `GET` (with `?ids=` the ids asked about, comma-separated) answers `{ "<event_id or printJobId>": times_processed }`; on `url`\'s host. Without it, `duplicate-event` and `print-duplicate` are skipped',
  })
  @IsOptional()
  @IsWebhookUrl()
  report_url?: string;

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string', enum: [...CASE_NAMES] },
    minItems: 1,
    maxItems: CASE_NAMES.length,
    uniqueItems: true,
    example: ['gap-reconcile', 'out-of-order'],
    description: 'the cases to run; every case when omitted',
  })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(CASE_NAMES.length)
  @ArrayUnique()
  @IsIn(CASE_NAMES, { each: true })
  cases?: CaseName[];
}
