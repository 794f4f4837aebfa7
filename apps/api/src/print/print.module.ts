import { Module } from '@nestjs/common';
import { MerchantClock } from '../clock/merchant-clock';
import { PrintController } from './print.controller';
import { PrintJobsModule } from '../print-jobs/print-jobs.module';
import { PrintService } from './print-service';
import { ReceiptTransactionsRepository } from './receipt-transactions.repository';

@Module({
  imports: [PrintJobsModule],
  controllers: [PrintController],
  providers: [PrintService, ReceiptTransactionsRepository, MerchantClock],
})
export class PrintModule {}
