import { Injectable } from '@nestjs/common';
import { SerialWriter } from '@tps/database';
import { MerchantEntity } from '../auth/merchant.entity';

/** Stores how far each merchant's sandbox clock runs ahead. */
@Injectable()
export class MerchantClockRepository {
  constructor(private readonly writer: SerialWriter) {}

  /**
   * Adds to the offset in the write queue, like every write (on SQLite, the queue's connection is
   * the one that writes); answers the new offset.
   */
  advance(merchantId: string, seconds: number): Promise<number> {
    return this.writer.write(async (manager) => {
      // Added in the statement, as a parameter: TypeORM's increment() writes the number into the
      // SQL, a new statement for every value (docs/queries).
      await manager
        .createQueryBuilder()
        .update(MerchantEntity)
        .set({ clockOffsetSeconds: () => 'clock_offset_seconds + :seconds' })
        .setParameter('seconds', seconds)
        .where({ merchantId })
        .execute();
      return (await manager.findOneByOrFail(MerchantEntity, { merchantId })).clockOffsetSeconds;
    });
  }
}
