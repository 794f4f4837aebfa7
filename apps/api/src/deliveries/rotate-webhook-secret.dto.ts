import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

/** 24 hours: a receiver's deployment picks the new secret up well within a day. */
export const DEFAULT_OVERLAP_SECONDS = 86_400;
/** A week at most: an old secret must not stay in force for good. */
export const MAX_OVERLAP_SECONDS = 604_800;

/** Body of `POST /sandbox/webhook-secret/rotate`. */
export class RotateWebhookSecretDto {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: MAX_OVERLAP_SECONDS,
    default: DEFAULT_OVERLAP_SECONDS,
    description: 'how long the replaced secret still signs beside the new one; 0: not at all',
    example: 3600,
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(MAX_OVERLAP_SECONDS)
  overlap_seconds?: number;
}
