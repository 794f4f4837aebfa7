import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { EntityTable, SerialWriter, sqlOf } from '@tps/database';
import { ContractError } from '@tps/domain';
import { MerchantEntity } from '../auth/merchant.entity';

/** Stores how far each merchant's sandbox clock runs ahead. */
@Injectable()
export class MerchantClockRepository {
  private readonly table: EntityTable<MerchantEntity>;

  constructor(
    private readonly writer: SerialWriter,
    reads: DataSource,
  ) {
    this.table = new EntityTable(reads, MerchantEntity);
  }

  /**
   * Adds to the offset in the write queue, like every write (on SQLite, the queue's connection is
   * the one that writes); answers the new offset.
   */
  advance(merchantId: string, seconds: number): Promise<number> {
    return this.writer.write(async (manager) => {
      const sql = sqlOf(manager);
      // Added in the statement, as a parameter: one text for every value (docs/queries).
      await this.table.add(sql, { merchantId }, 'clockOffsetSeconds', seconds);
      const [merchant] = await this.table.findColumns(sql, ['clockOffsetSeconds'], { merchantId });
      // Its account was removed after its request was authenticated (contract §14).
      if (merchant === undefined) throw new ContractError('AUTH-001', 'this account no longer exists');
      return merchant.clockOffsetSeconds;
    });
  }
}
