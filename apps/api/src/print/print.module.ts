import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { MerchantClock } from '../clock/merchant-clock';
import { TransactionEntity } from '../transactions/transaction.entity';
import { PrintController } from './print.controller';
import { PrintJobsModule } from '../print-jobs/print-jobs.module';
import { PrintService } from './print-service';
import { ReceiptTransactionsRepository } from './receipt-transactions.repository';

@Module({
  imports: [PrintJobsModule, TypeOrmModule.forFeature([TransactionEntity])],
  controllers: [PrintController],
  providers: [PrintService, ReceiptTransactionsRepository, MerchantClock],
})
export class PrintModule {}
