import { Body, Controller, Get, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { IsInt, Max, Min } from 'class-validator';
import { CurrentMerchant } from '../auth/current-merchant.decorator';
import type { MerchantEntity } from '../auth/merchant.entity';
import { MerchantAuthGuard } from '../auth/merchant-auth.guard';
import { ApiErrors } from '../openapi/api-errors.decorator';
import { MerchantClock, type ClockReading } from './merchant-clock';
import { MerchantClockRepository } from './merchant-clock.repository';

/** Ten years: far enough for any rule of the contract, small enough to stay a safe date. */
export const MAX_ADVANCE_SECONDS = 10 * 366 * 24 * 60 * 60;

export class AdvanceClockDto {
  @ApiProperty({ type: 'integer', minimum: 0, maximum: MAX_ADVANCE_SECONDS, example: 86400 })
  @IsInt()
  @Min(0)
  @Max(MAX_ADVANCE_SECONDS)
  advance_seconds!: number;
}

/** OpenAPI description of a clock reading (also part of a new sandbox account). */
export class ClockReadingDoc {
  @ApiProperty({ format: 'date-time', description: 'UTC', example: '2026-11-22T08:00:00.000Z' }) now!: string;
  @ApiProperty({ description: 'Mexico City, ISO 8601 with -06:00', example: '2026-11-22T02:00:00.000-06:00' })
  local!: string;
  @ApiProperty({ type: 'integer', minimum: 0, description: 'how far the clock was moved forward' })
  offset_seconds!: number;
}

/** The merchant's sandbox clock (contract §8, §11): read it, or move it forward. */
@ApiTags('sandbox')
@UseGuards(MerchantAuthGuard)
@Controller('sandbox/clock')
export class SandboxClockController {
  constructor(
    private readonly clock: MerchantClock,
    private readonly offsets: MerchantClockRepository,
  ) {}

  @Get()
  @ApiOkResponse({ type: ClockReadingDoc, description: "the merchant's clock" })
  @ApiOperation({
    summary: "Read the merchant's business clock",
    description: 'The clock that business rules read and that dates everything written for the merchant.',
  })
  read(@CurrentMerchant() merchant: MerchantEntity): ClockReading {
    return this.clock.reading(merchant);
  }

  @Post()
  @HttpCode(200)
  @ApiOkResponse({ type: ClockReadingDoc, description: 'the clock, moved' })
  @ApiOperation({
    summary: "Move the merchant's business clock forward (never back)",
    description:
      'Advances by `advance_seconds` (0 to ten years), so that void cut-offs and pre-authorization expiry can be tried in seconds. Authentication keeps the real clock.',
  })
  @ApiErrors('PAR-002')
  async advance(
    @CurrentMerchant() merchant: MerchantEntity,
    @Body() body: AdvanceClockDto,
  ): Promise<ClockReading> {
    merchant.clockOffsetSeconds = await this.offsets.advance(merchant.merchantId, body.advance_seconds);
    return this.clock.reading(merchant);
  }
}
