import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { CASE_NAMES } from './conformance-cases';

const RUN_ID = { format: 'uuid', example: '0b3f6a52-3c1e-4f0e-9a55-7c1d2e4b8f10' } as const;
const URL = { example: 'https://pos.example.com/webhooks/payments' } as const;

export class StartedRunDoc {
  @ApiProperty(RUN_ID) id!: string;
  @ApiProperty(URL) url!: string;
  @ApiProperty({ enum: ['running'] }) state!: string;
  @ApiProperty({ type: 'array', items: { type: 'string', enum: [...CASE_NAMES] }, example: [...CASE_NAMES] })
  cases!: string[];
}

class RunScoreDoc {
  @ApiProperty({ example: 9 }) passed!: number;
  @ApiProperty({ example: 1 }) failed!: number;
  @ApiProperty({
    example: 0,
    description: 'cases that could not be decided (no `report_url`), outside `total`, never passed',
  })
  skipped!: number;
  @ApiProperty({
    example: 10,
    description: 'every case asked for but the skipped ones; passed + failed while running is less',
  })
  total!: number;
}

class CaseReportDoc {
  @ApiProperty({ enum: [...CASE_NAMES], example: 'gap-reconcile' }) name!: string;
  @ApiProperty({
    example:
      'a previous_status that differs from the last recorded state means a missing event: reconcile through transaction search',
  })
  rule!: string;
  @ApiProperty({
    example:
      'APPROVAL whose previous_status skips the last state sent is answered 2xx, and the receiver searches for its client_transaction_id within the window',
  })
  expected!: string;
  @ApiProperty({
    example:
      'CARD_PRESENTED: 200 in 2 ms; APPROVAL (previous_status APPROVAL_REQUESTED, never sent): 200 in 1 ms; no transaction search for 6f1c2b4e-8d1a-4c3e-9b7a-2f5d6e7a8b9c within 30 s',
  })
  observed!: string;
  @ApiProperty({ example: false }) passed!: boolean;
  @ApiPropertyOptional({
    enum: [true],
    description: 'present when the case was not decided (`passed` is then false); `observed` says why',
  })
  skipped?: boolean;
  @ApiProperty({
    example:
      'Correlate events by client_transaction_id and compare previous_status with the state you last recorded; when they differ, call transaction search.',
  })
  hint!: string;
}

export class RunReportDoc {
  @ApiProperty(RUN_ID) id!: string;
  @ApiProperty(URL) url!: string;
  @ApiProperty({ enum: ['running', 'finished'], example: 'finished' }) state!: string;
  @ApiProperty({ format: 'date-time', example: '2026-11-22T08:00:00.123Z' }) started_at!: string;
  @ApiPropertyOptional({
    format: 'date-time',
    example: '2026-11-22T08:00:04.456Z',
    description: 'once finished',
  })
  finished_at?: string;
  @ApiProperty({ type: () => RunScoreDoc }) score!: RunScoreDoc;
  @ApiProperty({ type: () => [CaseReportDoc], description: 'the cases decided so far, in the order asked' })
  cases!: CaseReportDoc[];
}

export class RunListDoc {
  @ApiProperty({ type: () => [RunReportDoc], description: 'newest first' }) items!: RunReportDoc[];
}
