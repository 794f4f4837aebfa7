import { Injectable } from '@nestjs/common';
import { SerialWriter } from '@tps/database';
import { MerchantEntity } from '../auth/merchant.entity';

/** Stores how far each merchant's sandbox clock runs ahead. */
@Injectable()
export class MerchantClockRepository {
  constructor(private readonly writer: SerialWriter) {}

  /**
   * Adds to the offset in the write queue (a write beside it on SQLite's one connection would join
   * whatever transaction is open, and vanish with its rollback); answers the new offset.
   */
  advance(merchantId: string, seconds: number): Promise<number> {
    return this.writer.write(async (manager) => {
      await manager.increment(MerchantEntity, { merchantId }, 'clockOffsetSeconds', seconds);
      return (await manager.findOneByOrFail(MerchantEntity, { merchantId })).clockOffsetSeconds;
    });
  }
}
