import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { EntityTable, sqlOf } from '@tps/database';
import { TransactionEntity } from '../transactions/transaction.entity';

/** Reads the transaction a receipt is printed for (read-only: print jobs never change one). */
@Injectable()
export class ReceiptTransactionsRepository {
  private readonly table: EntityTable<TransactionEntity>;

  constructor(private readonly reads: DataSource) {
    this.table = new EntityTable(reads, TransactionEntity);
  }

  findByReference(merchantId: string, transactionReference: string): Promise<TransactionEntity | null> {
    return this.table.findOne(sqlOf(this.reads.manager), { merchantId, transactionReference });
  }
}
