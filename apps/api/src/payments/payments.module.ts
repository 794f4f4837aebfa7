import { Module } from '@nestjs/common';
import { MerchantClock } from '../clock/merchant-clock';
import { TransactionsModule } from '../transactions/transactions.module';
import { OperationService } from './operation-service';
import { PaymentsController } from './payments.controller';

@Module({
  imports: [TransactionsModule],
  controllers: [PaymentsController],
  providers: [OperationService, MerchantClock],
  exports: [OperationService],
})
export class PaymentsModule {}
