import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { MerchantEntity } from '../auth/merchant.entity';

/** Stores how far each merchant's sandbox clock runs ahead. */
@Injectable()
export class MerchantClockRepository {
  constructor(@InjectRepository(MerchantEntity) private readonly merchants: Repository<MerchantEntity>) {}

  /** Adds to the offset in one statement, so two moves at once both count; answers the new offset. */
  async advance(merchantId: string, seconds: number): Promise<number> {
    await this.merchants.increment({ merchantId }, 'clockOffsetSeconds', seconds);
    const merchant = await this.merchants.findOneByOrFail({ merchantId });
    return merchant.clockOffsetSeconds;
  }
}
