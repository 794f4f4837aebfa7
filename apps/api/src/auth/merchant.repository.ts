import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import type { DataSource, Repository } from 'typeorm';
import { SerialWriter } from '@tps/database';
import { MerchantEntity } from './merchant.entity';

@Injectable()
export class MerchantRepository {
  private readonly writer: SerialWriter;

  constructor(
    @InjectDataSource() dataSource: DataSource,
    @InjectRepository(MerchantEntity) private readonly merchants: Repository<MerchantEntity>,
  ) {
    this.writer = new SerialWriter(dataSource);
  }

  findById(merchantId: string): Promise<MerchantEntity | null> {
    return this.merchants.findOneBy({ merchantId });
  }

  count(): Promise<number> {
    return this.merchants.count();
  }

  async save(merchant: MerchantEntity): Promise<void> {
    // Through the shared writer: save() opens a transaction, which must not interleave with others.
    await this.writer.write((manager) => manager.save(merchant));
  }
}
