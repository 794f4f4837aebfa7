import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { SerialWriter } from '@tps/database';
import { MerchantEntity } from './merchant.entity';

@Injectable()
export class MerchantRepository {
  constructor(
    private readonly writer: SerialWriter,
    @InjectRepository(MerchantEntity) private readonly merchants: Repository<MerchantEntity>,
  ) {}

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
