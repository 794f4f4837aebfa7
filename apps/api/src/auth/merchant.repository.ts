import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { MerchantEntity } from './merchant.entity';

@Injectable()
export class MerchantRepository {
  constructor(@InjectRepository(MerchantEntity) private readonly merchants: Repository<MerchantEntity>) {}

  findById(merchantId: string): Promise<MerchantEntity | null> {
    return this.merchants.findOneBy({ merchantId });
  }

  count(): Promise<number> {
    return this.merchants.count();
  }

  async save(merchant: MerchantEntity): Promise<void> {
    await this.merchants.save(merchant);
  }
}
