import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { EntityTable, SerialWriter, sqlOf } from '@tps/database';
import { MerchantEntity } from './merchant.entity';

@Injectable()
export class MerchantRepository {
  private readonly table: EntityTable<MerchantEntity>;

  constructor(
    private readonly writer: SerialWriter,
    @InjectRepository(MerchantEntity) private readonly merchants: Repository<MerchantEntity>,
  ) {
    this.table = new EntityTable(merchants.manager.connection, MerchantEntity);
  }

  /** Read on every signed request: a prepared statement. */
  findById(merchantId: string): Promise<MerchantEntity | null> {
    return this.table.findOne(sqlOf(this.merchants.manager), { merchantId });
  }

  count(): Promise<number> {
    return this.merchants.count();
  }

  async save(merchant: MerchantEntity): Promise<void> {
    // Through the shared writer: save() opens a transaction, which must not interleave with others.
    await this.writer.write((manager) => manager.save(merchant));
  }
}
