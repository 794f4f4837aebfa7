import { Injectable } from '@nestjs/common';
import type { MerchantEntity } from '../auth/merchant.entity';

/** The merchant's business clock: real time, moved forward by the sandbox (contract §8). */
@Injectable()
export class MerchantClock {
  offsetMs(merchant: MerchantEntity): number {
    return merchant.clockOffsetSeconds * 1000;
  }

  now(merchant: MerchantEntity): Date {
    return new Date(Date.now() + this.offsetMs(merchant));
  }
}
