import { Injectable } from '@nestjs/common';
import { mexicoCityIso } from '@tps/domain';
import type { MerchantEntity } from '../auth/merchant.entity';

/** The answer of the sandbox clock routes (contract §11). */
export interface ClockReading {
  now: string;
  local: string;
  offset_seconds: number;
}

/**
 * The merchant's business clock: real time, moved forward by the sandbox (contract §8). Every
 * business rule reads it and everything written for the merchant is dated by it.
 */
/** The one field of a merchant its clock reads. */
type ClockOwner = Pick<MerchantEntity, 'clockOffsetSeconds'>;

@Injectable()
export class MerchantClock {
  offsetMs(merchant: ClockOwner): number {
    return merchant.clockOffsetSeconds * 1000;
  }

  now(merchant: ClockOwner): Date {
    return new Date(Date.now() + this.offsetMs(merchant));
  }

  reading(merchant: ClockOwner): ClockReading {
    const now = this.now(merchant);
    return { now: now.toISOString(), local: mexicoCityIso(now), offset_seconds: merchant.clockOffsetSeconds };
  }
}
