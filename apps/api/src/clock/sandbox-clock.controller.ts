import { Body, Controller, Get, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiBasicAuth, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { IsInt, Max, Min } from 'class-validator';
import { CurrentMerchant } from '../auth/current-merchant.decorator';
import type { MerchantEntity } from '../auth/merchant.entity';
import { MerchantAuthGuard } from '../auth/merchant-auth.guard';
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

/** The merchant's sandbox clock (contract §8, §11): read it, or move it forward. */
@ApiTags('sandbox')
@ApiBasicAuth()
@UseGuards(MerchantAuthGuard)
@Controller('sandbox/clock')
export class SandboxClockController {
  constructor(
    private readonly clock: MerchantClock,
    private readonly offsets: MerchantClockRepository,
  ) {}

  @Get()
  @ApiOperation({ summary: "Read the merchant's business clock" })
  read(@CurrentMerchant() merchant: MerchantEntity): ClockReading {
    return this.clock.reading(merchant);
  }

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: "Move the merchant's business clock forward (never back)" })
  async advance(
    @CurrentMerchant() merchant: MerchantEntity,
    @Body() body: AdvanceClockDto,
  ): Promise<ClockReading> {
    merchant.clockOffsetSeconds = await this.offsets.advance(merchant.merchantId, body.advance_seconds);
    return this.clock.reading(merchant);
  }
}
