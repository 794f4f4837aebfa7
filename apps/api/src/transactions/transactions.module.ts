import { Module } from '@nestjs/common';
import { EventIngest } from './event-ingest';
import { RecentTransactions } from './recent-transactions';
import { TransactionWebhooks } from './transaction-webhooks';
import { TransactionRepository } from './transaction.repository';

@Module({
  providers: [
    TransactionRepository,
    EventIngest,
    TransactionWebhooks,
    { provide: RecentTransactions, useFactory: () => new RecentTransactions() },
  ],
  exports: [TransactionRepository, EventIngest],
})
export class TransactionsModule {}
