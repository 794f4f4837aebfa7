import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EventIngest } from './event-ingest';
import { RecentTransactions } from './recent-transactions';
import { TransactionEventEntity } from './transaction-event.entity';
import { TransactionWebhooks } from './transaction-webhooks';
import { TransactionEntity } from './transaction.entity';
import { TransactionRepository } from './transaction.repository';

@Module({
  imports: [TypeOrmModule.forFeature([TransactionEntity, TransactionEventEntity])],
  providers: [
    TransactionRepository,
    EventIngest,
    TransactionWebhooks,
    { provide: RecentTransactions, useFactory: () => new RecentTransactions() },
  ],
  exports: [TransactionRepository, EventIngest],
})
export class TransactionsModule {}
