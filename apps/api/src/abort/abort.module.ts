import { Module } from '@nestjs/common';
import { PaymentsModule } from '../payments/payments.module';
import { TransactionsModule } from '../transactions/transactions.module';
import { AbortController } from './abort.controller';
import { AbortService } from './abort-service';

@Module({
  imports: [PaymentsModule, TransactionsModule],
  controllers: [AbortController],
  providers: [AbortService],
})
export class AbortModule {}
