import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { TransactionEntity } from '../transactions/transaction.entity';

/** Reads the transaction a receipt is printed for (read-only: print jobs never change one). */
@Injectable()
export class ReceiptTransactionsRepository {
  constructor(
    @InjectRepository(TransactionEntity) private readonly transactions: Repository<TransactionEntity>,
  ) {}

  findByReference(merchantId: string, transactionReference: string): Promise<TransactionEntity | null> {
    return this.transactions.findOneBy({ merchantId, transactionReference });
  }
}
